/**
 * The Ink chat as a person sees it: hel on a pseudo-terminal (`script`) of a fixed size, keys
 * typed into it, and its output fed as it arrives to a terminal emulator (`@xterm/headless`) of
 * the same size, whose screen and cell colours the tests read.
 *
 * @module
 */
import assert from "node:assert/strict";
import xterm from "@xterm/headless";
import { pause, type TempProject } from "./_helpers.ts";
import { helShellLine } from "./_terminal.ts";

/** Options of {@link startChat}. */
export interface ChatTerminalOptions {
  columns?: number;
  rows?: number;
  /** Colour on (no NO_COLOR); off by default. */
  color?: boolean;
  env?: Record<string, string>;
  /** Output that shows hel takes keys (default: Ink switching on bracketed paste). */
  ready?: string;
}

/** hel's chat on a pseudo-terminal, rendered by a terminal emulator. */
export interface ChatTerminal {
  /** The rows on screen now, right-trimmed. */
  screen(): Promise<string[]>;
  /** Every line the terminal showed, scrollback included, right-trimmed. */
  lines(): Promise<string[]>;
  /** Waits until the screen shows `text` (fails after about 20 s, showing the screen). */
  waitFor(text: string | RegExp): Promise<void>;
  /** Waits until `check` holds for the screen's rows. */
  waitUntil(check: (rows: string[]) => boolean, what: string): Promise<void>;
  /** Writes `bytes` to the terminal as keys. */
  press(bytes: string): Promise<void>;
  /** Types `text`, waits until the input box shows its last line, then presses Enter. */
  send(text: string): Promise<void>;
  /** The emulator, for cell attributes (colours). */
  terminal: xterm.Terminal;
  /** Everything hel wrote, as received. */
  output(): string;
  /** Waits for hel to exit (after the test made it leave); closes the terminal. */
  finish(): Promise<{ code: number; output: string }>;
}

/**
 * Starts hel's chat with `args` in `project` on a `columns` × `rows` pseudo-terminal and waits
 * until it takes keys (Ink has switched on bracketed paste, after raw mode).
 */
export async function startChat(
  project: TempProject,
  args: string[],
  options: ChatTerminalOptions = {},
): Promise<ChatTerminal> {
  const columns = options.columns ?? 100;
  const rows = options.rows ?? 30;
  // The runner's own NO_COLOR (.ci/run sets it) must not reach a chat meant to be in colour.
  const { NO_COLOR: _runnerNoColor, ...inherited } = Deno.env.toObject();
  const env: Record<string, string> = {
    ...inherited,
    HEL_API_KEY: "test-key",
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HEL_HOME: `${project.root}/hel-home`,
    TERM: "xterm-256color",
    ...options.env,
  };
  if (!options.color) env.NO_COLOR = "1";
  const child = new Deno.Command("script", {
    clearEnv: true,
    // The size is set inside the pty, before hel starts: `script` without a terminal of its
    // own gives hel a 0×0 one.
    args: ["-qfec", `stty rows ${rows} cols ${columns}; ${helShellLine(args)}`, "/dev/null"],
    cwd: project.project,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const terminal = new xterm.Terminal({
    cols: columns,
    rows,
    scrollback: 5000,
    allowProposedApi: true,
  });
  let text = "";
  let ended = false;
  let written: Promise<void> = Promise.resolve();
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) {
      const piece = decoder.decode(chunk, { stream: true });
      text += piece;
      written = written.then(() => new Promise((resolve) => terminal.write(piece, resolve)));
    }
    ended = true;
  })();
  const writer = child.stdin.getWriter();
  const read = async (from: "viewport" | "all") => {
    await written;
    const buffer = terminal.buffer.active;
    const first = from === "viewport" ? buffer.viewportY : 0;
    const last = from === "viewport" ? buffer.viewportY + rows : buffer.length;
    const shown: string[] = [];
    for (let y = first; y < last; y++) shown.push(buffer.getLine(y)?.translateToString(true) ?? "");
    return shown;
  };
  const chat: ChatTerminal = {
    terminal,
    screen: () => read("viewport"),
    lines: () => read("all"),
    output: () => text,
    async waitUntil(check, what) {
      for (let i = 0; i < 400; i++) {
        if (check(await read("viewport"))) return;
        if (ended) break;
        await pause(50);
      }
      const shown = (await read("viewport")).join("\n");
      assert.fail(`the screen never showed ${what}:\n${shown}`);
    },
    waitFor(wanted) {
      const found = (rows: string[]) => {
        const screen = rows.join("\n");
        return typeof wanted === "string" ? screen.includes(wanted) : wanted.test(screen);
      };
      return chat.waitUntil(found, String(wanted));
    },
    press: (bytes) => writer.write(new TextEncoder().encode(bytes)),
    async send(message) {
      await chat.press(message);
      const lastLine = message.split("\n").at(-1)!.slice(-20);
      if (lastLine.trim() !== "") await chat.waitFor(lastLine);
      await chat.press("\r");
    },
    async finish() {
      const status = await Promise.race([
        child.status,
        pause(20_000).then(() => undefined),
      ]);
      if (!status) child.kill("SIGKILL");
      await writer.close().catch(() => {});
      const final = status ?? await child.status;
      await reading;
      await written;
      terminal.dispose();
      assert.ok(status, `hel did not exit:\n${text}`);
      return { code: final.code, output: text };
    },
  };
  const ready = options.ready ?? "\x1b[?2004h";
  for (let i = 0; i < 600 && !ended && !text.includes(ready); i++) await pause(50);
  if (!text.includes(ready)) {
    await chat.finish().catch(() => {});
    assert.fail(`the chat never started:\n${text}`);
  }
  return chat;
}
