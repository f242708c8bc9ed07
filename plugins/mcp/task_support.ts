/**
 * MCP tasks: a tool whose `execution.taskSupport` is "required" can only be called as a task
 * (the call answers at once with a task id, and the result is fetched later with
 * `tasks/result`). hel calls tools directly and does not implement tasks, so such a tool
 * cannot work and is excluded from the catalogue with this reason. "optional" tools are
 * called directly, as the spec allows.
 *
 * @module
 */

/** Why a listed tool is excluded for needing tasks; undefined when it does not need them. */
export function taskExclusion(tool: Record<string, unknown>): string | undefined {
  const execution = tool.execution;
  if (execution === null || typeof execution !== "object") return undefined;
  if ((execution as Record<string, unknown>).taskSupport !== "required") return undefined;
  return 'it runs only as an MCP task (execution.taskSupport "required"), which hel does not ' +
    'support (to stop this report, list the tools you want in the server\'s "tools")';
}
