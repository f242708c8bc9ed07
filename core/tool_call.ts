/**
 * The single tool-call path. Every call, built-in or from a plugin such as MCP, goes through
 * the same steps: lookup → argument parsing and schema check → before-call interception → permission decision →
 * run → after-call interception (successful calls only) → result shaping.
 *
 * @module
 */
import type { ArgumentCheck } from "./argument_problems.ts";
import { errorMessage } from "./errors.ts";
import { schemaCheckFor } from "./schema_check.ts";
import type { FileReading } from "./file_reading.ts";
import type { PluginDriver } from "./plugin_driver.ts";
import type { HelEvent, PermissionEvent, ToolCallStatus } from "./events.ts";
import {
  type Approval,
  type Approver,
  type CallDescription,
  decideWithRules,
  type PermissionDecision,
  permissionDeniedText,
  plainDescription,
  ruleDeniedText,
} from "./permissions.ts";
import type { RuleBook, RuleDecision } from "./permission_rules.ts";
import { spillIfLarge, type SpillWriter } from "./spill.ts";
import { editDistance } from "./text.ts";
import type { ToolRegistry } from "./tool_registry.ts";
import type {
  AccessLevel,
  Tool,
  ToolCall,
  ToolCallInfo,
  ToolClass,
  ToolMedia,
  ToolResult,
} from "./types.ts";

/** What the tool-call path needs from its surroundings. */
export interface ToolCallDeps {
  /** The run's tools: registered ones and those plugins resolve by name. */
  tools: Pick<ToolRegistry, "lookup" | "names">;
  /** Before- and after-call interception. */
  plugins: Pick<PluginDriver, "beforeToolCall" | "afterToolCall">;
  access: AccessLevel;
  /** The settings' permission rules; none when undefined. */
  rules?: RuleBook;
  approver: Approver;
  /** Undefined turns spilling off (e.g. `--no-compaction`). */
  spill: SpillWriter | undefined;
  /** How the model reads a spilled result, when a plugin offers file reading. */
  reading?: FileReading;
  emit(event: HelEvent): void;
}

/** The text of a finished call and whether it succeeded. */
export interface ToolCallOutcome {
  ok: boolean;
  /** What the model receives in the `tool` message (failures start with `error: `). */
  content: string;
  /** Images and audio the result carries beside its markers (see ToolResult.media). */
  media?: readonly ToolMedia[];
}

type Lookup = { kind: "tool"; tool: Tool } | { kind: "refused"; text: string };

function lookup(name: string, deps: ToolCallDeps): Lookup {
  const found = deps.tools.lookup(name);
  if (found?.kind === "tool") return found;
  if (found?.kind === "not-loaded") return { kind: "refused", text: found.message };
  // Named, never run: a near name is the model's slip, and routing it could run the wrong tool.
  const folded = name.trim().toLowerCase();
  const near = deps.tools.names().find((known) => editDistance(known.toLowerCase(), folded) <= 2);
  const hint = near === undefined ? "" : ` (tool names are exact: did you mean ${near}?)`;
  return {
    kind: "refused",
    text: `unknown tool: ${name}; call one of the tools offered to you${hint}`,
  };
}

/** Arguments longer than this are refused before parsing. */
export const MAX_ARGUMENT_CHARS = 4_000_000;

function parseArguments(raw: string): Record<string, unknown> | string {
  if (raw.length > MAX_ARGUMENT_CHARS) {
    return `arguments are ${raw.length} characters, over the limit of ${MAX_ARGUMENT_CHARS}; ` +
      "split the work into smaller calls";
  }
  if (raw.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return `arguments are not valid JSON (${errorMessage(error)}); ` +
      "send the arguments again as one JSON object";
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return "arguments must be a JSON object; send them again as one JSON object";
  }
  return value as Record<string, unknown>;
}

async function runTool(
  info: ToolCallInfo,
  signal: AbortSignal,
  emit: (event: HelEvent) => void,
): Promise<ToolResult> {
  const callId = info.callId;
  emit({
    type: "tool_start",
    callId,
    name: info.name,
    args: info.args,
    category: info.tool.category,
  });
  const onOutput = (text: string) => emit({ type: "tool_output", callId, text });
  try {
    return await info.tool.run(info.args, { callId, signal, onOutput });
  } catch (error) {
    return {
      ok: false,
      text: `${info.name} failed unexpectedly: ${errorMessage(error)}. This is a fault in ` +
        "hel or a plugin, not in your call; try another way, or tell the user what failed",
    };
  }
}

/** The tool's own check, else its JSON Schema's; a throw is hel's or the plugin's fault. */
async function checkArguments(
  tool: Tool,
  args: Record<string, unknown>,
): Promise<ArgumentCheck> {
  try {
    if (tool.checkArguments) return tool.checkArguments(args);
    return (await schemaCheckFor(tool.parameters))?.(args) ?? { ok: true, args };
  } catch (error) {
    return {
      ok: false,
      problems: [`the arguments could not be checked (${errorMessage(error)})`],
    };
  }
}

/**
 * Runs one call through the whole path and returns what the model will read. Never throws:
 * unknown tools, bad arguments, blocks, denials and tool failures all become error results.
 */
export async function executeToolCall(
  call: ToolCall,
  deps: ToolCallDeps,
  signal: AbortSignal,
): Promise<ToolCallOutcome> {
  const name = call.function.name;
  // Each decision names its call, so whoever reads the events can tie it to the call's result.
  const decided = (event: Omit<PermissionEvent, "callId">) =>
    deps.emit({ ...event, callId: call.id });
  const finish = async (
    result: ToolResult,
    args: unknown,
    tool?: Tool,
    status: ToolCallStatus = result.ok ? "done" : "failed",
  ) => {
    const text = result.ok ? result.text : `error: ${result.text}`;
    const content = deps.spill ? await spillIfLarge(text, deps.spill, deps.reading?.spilled) : text;
    deps.emit({
      type: "tool_call",
      callId: call.id,
      name,
      args,
      category: tool?.category ?? "other",
      ok: result.ok,
      status,
      text: content,
    });
    const media = result.media?.length ? { media: result.media } : {};
    return { ok: result.ok, content, ...media };
  };

  const found = lookup(name, deps);
  const parsed = parseArguments(call.function.arguments);
  const argsForRecord = typeof parsed === "string" ? call.function.arguments : parsed;
  if (found.kind === "refused") {
    decided(permissionEvent(deps, name, argsForRecord, null, "deny", null, false));
    return finish({ ok: false, text: found.text }, argsForRecord);
  }
  const tool = found.tool;
  if (typeof parsed === "string") {
    return finish({ ok: false, text: `${name}: ${parsed}` }, argsForRecord, tool);
  }
  // A call that cannot run is answered before hooks, the approval question or a server see it.
  const checked = await checkArguments(tool, parsed);
  if (!checked.ok) {
    const problems = checked.problems.join("; ");
    return finish(
      {
        ok: false,
        text: checked.unusable
          ? `${name} cannot be called: ${problems}, so hel cannot check its arguments. ` +
            "Do not call it again in this run; use another tool, or tell the user"
          : `${name}: the arguments do not fit the tool's parameters: ${problems}. ` +
            "Send the call again with all of these fixed",
      },
      parsed,
      tool,
    );
  }
  const info: ToolCallInfo = { callId: call.id, name, args: checked.args, tool, signal };

  // The first plugin that blocks decides; the rest do not see the call. A throw blocks too.
  const blocked = await deps.plugins.beforeToolCall(info);
  if (blocked) {
    decided({
      ...permissionEvent(deps, name, parsed, tool.toolClass, "deny", null, false),
      hookBlocked: true,
    });
    return finish({ ok: false, text: blocked.block }, parsed, tool);
  }

  const { decision, byRule } = decideWithRules(
    deps.access,
    tool.toolClass,
    await rulesDecision(deps, tool, checked.args),
  );
  const answer = decision === "ask"
    ? await deps.approver.approve(await approvalRequest(tool, name, checked.args, byRule), signal)
    : null;
  const approval = answer?.approval ?? null;
  const event = (executed: boolean) => ({
    ...permissionEvent(deps, name, parsed, tool.toolClass, decision, approval, executed),
    ...(byRule ? { byRule } : {}),
  });
  if (decision === "deny" || (approval !== null && approval !== "approved")) {
    decided(event(false));
    const refusedBy = byRule?.effect === "deny" ? byRule.rules[0] : undefined;
    return finish(
      {
        ok: false,
        text: refusedBy
          ? ruleDeniedText(name, refusedBy)
          : permissionDeniedText(name, deps.access, approval, answer?.instead),
      },
      parsed,
      tool,
      "declined",
    );
  }
  decided(event(true));

  const ran = await runTool(info, signal, deps.emit);
  if (!ran.ok) return finish(ran, parsed, tool);
  // After-call interception is a chain: each plugin sees the result the previous one left.
  const result = await deps.plugins.afterToolCall(info, ran);
  // A hook that adds to the text returns a new result: the media stay the tool's.
  return finish({ ...result, media: result.media ?? ran.media }, parsed, tool);
}

/** What the rules say of the call; a malformed rule is reported (once) as a warning. */
function rulesDecision(
  deps: ToolCallDeps,
  tool: Tool,
  args: Record<string, unknown>,
): Promise<RuleDecision | undefined> {
  if (!deps.rules || deps.rules.empty) return Promise.resolve(undefined);
  return deps.rules.decide(tool, args, (text) => deps.emit({ type: "warning", text }));
}

/**
 * The question for the approver. One a rule made hel ask offers no "don't ask again": the
 * person's rule says to ask each time, or hel could not rule out a deny rule.
 */
async function approvalRequest(
  tool: Tool,
  name: string,
  args: Record<string, unknown>,
  byRule: RuleDecision | undefined,
) {
  const description = await describeCall(tool, name, args);
  if (!byRule) return { toolName: name, args, ...description };
  return { toolName: name, args, ...description, scope: undefined, byRule };
}

/** The tool's own description of the call; its arguments when it has none or it throws. */
async function describeCall(
  tool: Tool,
  name: string,
  args: Record<string, unknown>,
): Promise<CallDescription> {
  if (!tool.describeCall) return plainDescription(name, args);
  try {
    return await tool.describeCall(args);
  } catch {
    return plainDescription(name, args);
  }
}

function permissionEvent(
  deps: ToolCallDeps,
  name: string,
  args: unknown,
  toolClass: ToolClass | null,
  decision: PermissionDecision,
  approval: Approval | null,
  executed: boolean,
): Omit<PermissionEvent, "callId"> {
  return {
    type: "permission",
    name,
    args,
    access: deps.access,
    toolClass,
    decision,
    approval,
    executed,
  };
}
