/**
 * The fixture server that asks questions (fixtures/mcp/elicit_server.ts) as an entry of
 * `.hel/mcp.json`, and a wait for questions asked again, for the elicitation tests.
 *
 * @module
 */
import { eventually, REPO_ROOT } from "./_helpers.ts";
import type { ServerEntry } from "./_mcp.ts";
import type { TerminalRun } from "./_terminal.ts";

/** The fixture, run by Deno outside the sandbox (it needs Deno's own cache); logs to `log`. */
export function elicitServer(log: string, timeout?: number): ServerEntry {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      `${REPO_ROOT}/deno.json`,
      `${REPO_ROOT}/fixtures/mcp/elicit_server.ts`,
      "--log",
      log,
    ],
    sandbox: false,
    ...(timeout === undefined ? {} : { timeout }),
  };
}

/** Waits until the terminal showed `text` `times` times. */
export async function shownTimes(hel: TerminalRun, text: string, times: number): Promise<void> {
  await eventually(() => hel.output().split(text).length > times, `${text} ${times} times`);
}

/** The answer the fixture got to the question with `message`, once it came (from its log). */
export async function answerTo(log: string, message: string): Promise<unknown> {
  let found: unknown;
  await eventually(async () => {
    const lines = (await Deno.readTextFile(log).catch(() => "")).split("\n").filter((l) => l);
    found = lines.map((line) => JSON.parse(line)).find((entry) => entry.message === message);
    return found !== undefined;
  }, `an answer to ${message}`);
  return (found as { answer: unknown }).answer;
}
