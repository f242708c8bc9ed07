/**
 * `bash`: one command in a fresh `/bin/bash --noprofile --norc -c`, inside the sandbox, with
 * stdin from /dev/null and a wall-clock limit after which its whole process group is killed.
 * The reply starts with `exit=<code>` (or `exit=killed`), then stdout, then stderr; while it
 * runs, both stream to `ToolContext.onOutput` as they arrive.
 *
 * @module
 */
import { defineTool, type Tool, type ToolContext, type ToolResult, z } from "../../../core/mod.ts";
import description from "./bash.txt" with { type: "text" };
import { runCommand } from "./run_command.ts";
import { commandPrefix } from "./command_scope.ts";
import { readCommandLine } from "./command_line.ts";
import { describeChange, type GitChange, type Sandbox } from "../../../kit/mod.ts";

/** The default wall-clock limit of one command: ten minutes. */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 600;

/** What `bash` needs from the plugin. */
export interface BashDeps {
  sandbox: Sandbox;
  project: string;
  timeoutSeconds: number;
  /** False with `--sandbox off`; the description tells the model which it is. */
  sandboxed: boolean;
  /**
   * False with `--sandbox-network off`: the description says so, so the model asks the user
   * instead of retrying downloads that cannot work. Undefined counts as on.
   */
  network?: boolean;
  /**
   * True while the sandbox keeps git metadata read-only (not `--allow-git-writes`): the
   * description says so, and so does the note on a repository a command planted.
   */
  gitReadOnly?: boolean;
  /** Told once when the bash parser cannot load (every command line is then unreadable). */
  onParserProblem?(problem: string): void;
}

const parameters = z.strictObject({
  command: z.string().describe("The bash command line to run"),
});

/** Creates the tool. */
export function bashTool(deps: BashDeps): Tool {
  return defineTool({
    name: "bash",
    description: `${description.trimEnd()}\n${
      deps.sandboxed
        ? "- Commands run in a sandbox: only the working directory is writable, /tmp is " +
          "private, and the .hel folder is hidden.\n" +
          "- The home folder is hidden except toolchains (~/.cargo, ~/.deno, ~/go, ...): when " +
          "a command needs a file from it, ask the user instead of retrying.\n" +
          "- Files cannot get set-uid or set-gid bits: chmod u+s, g+s or a mode such as 4755 " +
          "fails with 'Operation not permitted'; ask the user to set such a bit.\n"
        : ""
    }${
      deps.sandboxed && deps.network === false
        ? "- There is no network access: downloads and package installs fail, so ask the " +
          "user for what must be fetched.\n"
        : ""
    }${
      deps.gitReadOnly
        ? "- The .git folder is read-only: git commands that read (status, log, diff, show) " +
          "work; ones that change the repository (add, commit, checkout, stash) fail, so ask " +
          "the user to run those.\n" +
          "- A git repository a command creates or changes anywhere in the project is reported " +
          "to the user, and its settings (config, hooks) are read-only to later commands.\n"
        : ""
    }- Time limit per command: ${formatSeconds(deps.timeoutSeconds)}.\n`,
    parameters,
    toolClass: "execute",
    category: "exec",
    describeCall: async ({ command }) => {
      const prefix = await commandPrefix(command);
      return {
        preview: { kind: "command", command, cwd: deps.project },
        scope: prefix === undefined ? undefined : { kind: "command", tool: "bash", prefix },
      };
    },
    ruleTarget: async ({ command }) => {
      const { parts, plain, problem } = await readCommandLine(command);
      if (problem !== undefined) deps.onParserProblem?.(problem);
      return { kind: "command", parts, plain };
    },
    run: (args, context) => bash(deps, args, context),
  });
}

function formatSeconds(seconds: number): string {
  return seconds % 60 === 0 && seconds >= 60
    ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}`
    : `${seconds} second${seconds === 1 ? "" : "s"}`;
}

async function bash(
  deps: BashDeps,
  { command }: z.infer<typeof parameters>,
  context: ToolContext,
): Promise<ToolResult> {
  const prepared = await deps.sandbox.prepare("/bin/bash", [
    "--noprofile",
    "--norc",
    "-c",
    command,
  ]);
  if (!prepared.ok) return { ok: false, text: prepared.text };
  const outcome = await runCommand({
    program: prepared.program,
    args: prepared.args,
    cwd: deps.project,
    env: prepared.env,
    timeoutMs: deps.timeoutSeconds * 1000,
    signal: context.signal,
    // The person watches the command run; the model reads the captured result below.
    onOutput: (text) => context.onOutput?.(text),
  });
  if (outcome.kind === "not-started") {
    return { ok: false, text: `could not start bash: ${outcome.message}` };
  }
  const exit = outcome.timedOut || outcome.interrupted || outcome.code === null
    ? "killed"
    : String(outcome.code);
  let text = `exit=${exit}\n${outcome.stdout}${outcome.stderr}`;
  if (outcome.truncated) text += "\n[Output beyond 16 MiB per stream was dropped.]";
  if (outcome.timedOut) {
    text += `\n[The command was still running after ${formatSeconds(deps.timeoutSeconds)}, ` +
      "so it was stopped and every process it started was killed. Split the work into " +
      "shorter commands, or limit what it processes.]";
  } else if (outcome.interrupted) {
    text += "\n[The user interrupted the run; the command and its processes were killed.]";
  }
  // The command's processes are gone (the sandbox's pid namespace ends with it), so nothing
  // changes the project behind this look.
  const planted = await deps.sandbox.afterRun();
  if (planted.length > 0) text += plantedNote(planted, deps.gitReadOnly ?? false);
  return { ok: exit === "0", text };
}

/** What the model is told of git repositories the command created or changed. */
function plantedNote(changes: readonly GitChange[], readOnly: boolean): string {
  return "\n[This command created or changed git repositories, where git runs the programs " +
    "their settings name when the user (or a shell prompt) runs git there:\n" +
    changes.map((change) => `- ${describeChange(change)}\n`).join("") +
    (readOnly
      ? "From the next command on their settings are read-only, so git commands that change " +
        "them (git config, adding hooks) will fail. "
      : "") +
    "The user is told about them at the end of the run.]";
}
