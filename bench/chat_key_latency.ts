/**
 * Key-to-screen latency of the whole chat, as a person meets it: hel's Ink chat on a
 * pseudo-terminal (`script`, 100×30), one character written at a time, timed until a terminal
 * emulator (`@xterm/headless`) fed with hel's output shows the box holding it; the next key
 * waits for the last one's echo. `input_latency.ts` times the input box alone.
 *
 * @module
 */
import xterm from "@xterm/headless";
import { benchProject, type HelCommand, helEnv } from "./hel_process.ts";
import { median } from "./stats.ts";
import { timedModel } from "./scripted.ts";

/** The chat's key-to-screen latency, in milliseconds. */
export interface ChatKeyLatency {
  keys: number;
  medianMs: number;
  maxMs: number;
}

const COLUMNS = 100;
const ROWS = 30;

/** Types `keys` characters into the chat and times each one's echo. */
export async function chatKeyLatency(hel: HelCommand, keys = 40): Promise<ChatKeyLatency> {
  await using project = await benchProject();
  await using model = timedModel([]);
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const words = [hel.command, ...hel.prefix, "--base-url", model.url, "--model", "m"];
  const env = { ...helEnv(project.home), TERM: "xterm-256color" };
  delete (env as Record<string, string>).NO_COLOR;
  const child = new Deno.Command("script", {
    args: [
      "-qfec",
      `stty rows ${ROWS} cols ${COLUMNS}; exec ${words.map(quote).join(" ")}`,
      "/dev/null",
    ],
    cwd: project.project,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const terminal = new xterm.Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true });
  let raw = "";
  let onScreen: () => void = () => {};
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) {
      const piece = decoder.decode(chunk, { stream: true });
      raw += piece;
      terminal.write(piece, () => onScreen());
    }
  })();
  const screenHas = (text: string) => {
    const buffer = terminal.buffer.active;
    for (let y = 0; y < ROWS; y++) {
      if (buffer.getLine(buffer.viewportY + y)?.translateToString(true).includes(text)) return true;
    }
    return false;
  };
  const until = (check: () => boolean, limitMs: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), limitMs);
      onScreen = () => {
        if (!check()) return;
        clearTimeout(timer);
        resolve(true);
      };
      onScreen();
    });
  const writer = child.stdin.getWriter();
  try {
    if (!await until(() => raw.includes("\x1b[?2004h"), 30_000)) {
      throw new Error(`the chat did not start:\n${raw.slice(-2000)}`);
    }
    const times: number[] = [];
    let typed = "";
    for (let i = 0; i < keys; i++) {
      const key = "abcdefghijklmnopqrstuvwxyz"[i % 26]!;
      typed += key;
      const shown = `> ${typed}`;
      const started = performance.now();
      await writer.write(new TextEncoder().encode(key));
      if (!await until(() => screenHas(shown), 5_000)) throw new Error(`key ${i} never shown`);
      times.push(performance.now() - started);
    }
    return { keys, medianMs: median(times), maxMs: Math.max(...times) };
  } finally {
    await writer.write(new TextEncoder().encode("\x03\x03")).catch(() => {});
    await writer.close().catch(() => {});
    const ended = await Promise.race([child.status, new Promise((r) => setTimeout(r, 5_000))]);
    if (!ended) child.kill("SIGKILL");
    await child.status;
    await reading;
    terminal.dispose();
  }
}

/** The report's section. */
export function formatChatKeyLatency(latency: ChatKeyLatency): string[] {
  return [
    "## The chat, key to screen",
    `Key written to the pseudo-terminal → character shown on the emulated screen, ` +
    `${latency.keys} keys one after another: median ${latency.medianMs.toFixed(1)} ms, ` +
    `slowest ${latency.maxMs.toFixed(1)} ms.`,
  ];
}
