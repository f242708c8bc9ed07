/**
 * Key-to-screen latency of the chat's input box: the time from a key's bytes reaching Ink to
 * the redrawn box reaching the terminal, typed at a person's pace (one key every 50 ms, so
 * Ink's 30-frames-a-second limit does not hold a key back) into an empty box, into a box
 * holding a recalled prompt of 2,000 characters on 40 lines, and with 1,000 prompts in the
 * history.
 *
 * @module
 */
import { createElement } from "react";
import { InputBox } from "../cli/chat/input_box.tsx";
import type { PromptHistory } from "../cli/chat/history.ts";
import { inkOnTerminal } from "../tests/_ink_terminal.ts";
import { median } from "./stats.ts";
import { table } from "./table.ts";

/** Latency figures for one situation, ms. */
export interface InputLatencyRow {
  situation: string;
  keys: number;
  medianMs: number;
  p95Ms: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memoryHistory(entries: string[]): PromptHistory {
  return { entries: () => entries, add: () => Promise.resolve() };
}

/** Waits for `drawn`; a box that does not redraw within 5 s is an error, not a hang. */
async function redrawn(drawn: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the input box did not redraw a key")), 5000);
  });
  try {
    await Promise.race([drawn, late]);
  } finally {
    clearTimeout(timer);
  }
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN;
}

async function measure(
  situation: string,
  keys: number,
  history: PromptHistory,
  recall = false,
): Promise<InputLatencyRow> {
  const box = createElement(InputBox, {
    history,
    commands: [],
    busy: false,
    color: true,
    width: 100,
    onSubmit: () => {},
    onEscape: () => {},
    onCtrlC: () => {},
    onExit: () => {},
  });
  const terminal = await inkOnTerminal(box, { columns: 100, rows: 60 });
  try {
    if (recall) await terminal.keys("\x1b[A"); // ↑: the newest prompt, all of it in the box
    const times: number[] = [];
    for (let key = 0; key < keys; key++) {
      const drawn = terminal.nextWrite();
      const sent = performance.now();
      terminal.send(String.fromCharCode(97 + key % 26));
      await redrawn(drawn);
      times.push(performance.now() - sent);
      await pause(50);
    }
    return { situation, keys, medianMs: median(times), p95Ms: percentile(times, 0.95) };
  } finally {
    await terminal.close();
  }
}

/** Key-to-screen latency in the three situations, `keys` keys each. */
export async function inputLatency(keys = 60): Promise<InputLatencyRow[]> {
  const long = Array.from({ length: 40 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
  const prompts = Array.from({ length: 1000 }, (_, i) => `earlier prompt number ${i}`);
  return [
    await measure("empty box", keys, memoryHistory([])),
    await measure("box holding 2,000 characters on 40 lines", keys, memoryHistory([long]), true),
    await measure("1,000 prompts in the history", keys, memoryHistory(prompts)),
  ];
}

/** Which React build ran: development (much slower) unless `NODE_ENV=production`. */
function reactBuild(): "production" | "development" {
  return Deno.env.get("NODE_ENV") === "production" ? "production" : "development";
}

/** The report's section for the rows. */
export function formatInputLatency(rows: readonly InputLatencyRow[]): string[] {
  return [
    "## Input box: key to screen",
    "From a key's bytes reaching Ink to the redrawn box reaching the terminal, one key every " +
    `50 ms (the chat's input box on a pretend 100-column terminal; React ${reactBuild()} build).`,
    table(
      ["input box", "keys", "median (ms)", "p95 (ms)"],
      rows.map((
        row,
      ) => [row.situation, String(row.keys), row.medianMs.toFixed(1), row.p95Ms.toFixed(1)]),
    ),
  ];
}

if (import.meta.main) {
  console.log(formatInputLatency(await inputLatency(Number(Deno.args[0] ?? 60))).join("\n\n"));
}
