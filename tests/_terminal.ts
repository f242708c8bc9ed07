/**
 * hel on a real pseudo-terminal (`script` from util-linux), so it sees a terminal exactly as a
 * person's shell gives it one: typed lines, review questions, the interactive chat.
 *
 * @module
 */
import assert from "node:assert/strict";
import { MAIN_TS, pause, type TempProject } from "./_helpers.ts";

/** hel running on a pseudo-terminal (`script`), its output readable while it runs. */
export interface TerminalRun {
  /** Everything the terminal showed so far. */
  output(): string;
  /** Waits until the terminal showed `text` (fails after about 30 s). */
  waitFor(text: string): Promise<void>;
  /** Types a line. */
  type(line: string): Promise<void>;
  /** Ends input and waits for hel to exit. */
  finish(): Promise<{ code: number; output: string }>;
}

/**
 * The shell line `script -c` runs to start hel with `args`. `exec`: without it a shell that does
 * not replace itself (dash, when SHELL is unset) stays on the terminal between script and hel,
 * and a Ctrl-C typed for hel kills that shell too.
 */
export function helShellLine(args: readonly string[]): string {
  return "exec " + [Deno.execPath(), "run", "--allow-all", MAIN_TS, ...args]
    .map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
}

/** Starts hel with `args` on a pseudo-terminal in the project. */
export function helOnTerminal(project: TempProject, args: string[]): TerminalRun {
  const words = helShellLine(args);
  const child = new Deno.Command("script", {
    args: ["-qfec", words, "/dev/null"],
    cwd: project.project,
    env: { HEL_API_KEY: "test-key", HEL_HOME: `${project.root}/hel-home`, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let text = "";
  let ended = false;
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) text += decoder.decode(chunk, { stream: true });
    ended = true;
  })();
  const writer = child.stdin.getWriter();
  return {
    output: () => text,
    async waitFor(wanted) {
      for (let i = 0; i < 600 && !ended && !text.includes(wanted); i++) await pause(50);
      assert.ok(text.includes(wanted), `the terminal never showed ${wanted}:\n${text}`);
    },
    type: (line) => writer.write(new TextEncoder().encode(line)),
    async finish() {
      await writer.close().catch(() => {});
      const status = await child.status;
      await reading;
      return { code: status.code, output: text };
    },
  };
}
