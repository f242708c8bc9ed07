/**
 * Receiving a large MCP result (issue 17): the time from starting a stdio "server" (`cat` of a
 * prepared `tools/call` answer, so the server costs nothing) to hel's transport handing the
 * parsed message to the SDK, at 1, 10 and 50 MiB, next to `JSON.parse` of the same text (the
 * target is at most twice that); and the peak memory of a process that receives the largest
 * answer (the target is about three times its size), measured in a fresh Deno process each time
 * so that one size's garbage does not count against the next.
 *
 * `deno run -A bench/mcp_framing.ts [runs] [--sizes 1,10]` prints the section; `--transport PATH`
 * measures another copy of transport.ts (e.g. the code before a change, its size bound raised)
 * with the same harness (the "reader alone" columns are always the current reader).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { LineReader } from "../plugins/mcp/line_reader.ts";
import { median, repeat } from "./stats.ts";
import { table } from "./table.ts";

/** Sizes measured, MiB. */
export const FRAMING_SIZES = [1, 10, 50] as const;

/** Figures for one size (medians). */
export interface FramingRow {
  mib: number;
  /** Start of the process → the parsed message, ms. */
  receiveMs: number;
  /** The same for a 100-byte answer (starting the process), ms. */
  spawnMs: number;
  /** `JSON.parse` of the same line, ms. */
  parseMs: number;
  /**
   * hel's reader alone, in this process: the line in 64 KiB pieces → the SDK's message (no
   * process, no pipe), ms.
   */
  readerMs: number;
  /** Peak resident size while receiving, minus the size before (MiB); the largest size only. */
  peakGrowthMib?: number;
}

const TRANSPORT = fileURLToPath(new URL("../plugins/mcp/transport.ts", import.meta.url));

/** A `tools/call` answer of `mib` MiB, as the SDK's servers write it (id after the result). */
function answerLine(mib: number): string {
  const text = "line of output\n".repeat(Math.ceil(mib * 1024 * 1024 / 16));
  return answerOf(text);
}

function answerOf(text: string): string {
  const line = JSON.stringify({
    result: { content: [{ type: "text", text }] },
    jsonrpc: "2.0",
    id: 1,
  });
  return line + "\n";
}

/** One receive in this process: ms from start to the message. */
async function receiveOnce(transportPath: string, file: string): Promise<number> {
  const { ProcessTransport } = await import(transportPath);
  const transport = new ProcessTransport({
    cwd: Deno.cwd(),
    name: "bench",
    maxMessageBytes: 256 * 1024 * 1024,
    shutdownWaitMs: 500,
  });
  // The "server" stays after writing: hel counts a server that exited as gone at once.
  transport.use({
    command: "sh",
    args: ["-c", 'cat "$0"; exec sleep 60', file],
    env: { PATH: Deno.env.get("PATH") ?? "" },
  });
  const received = new Promise<void>((resolve, reject) => {
    transport.onmessage = () => resolve();
    transport.onerror = (error: Error) => reject(error);
    transport.onclose = () => reject(new Error("closed before the message"));
  });
  const start = performance.now();
  await transport.start();
  await received;
  const elapsed = performance.now() - start;
  transport.onclose = undefined;
  await transport.close();
  return elapsed;
}

/** ms for hel's line reader and the SDK's parse to turn `line`, in 64 KiB pieces, into a message. */
function readInProcess(line: string): number {
  const bytes = new TextEncoder().encode(line);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 65536) pieces.push(bytes.slice(at, at + 65536));
  const start = performance.now();
  const reader = new LineReader(256 * 1024 * 1024);
  for (const piece of pieces) {
    for (const read of reader.push(piece)) if ("line" in read) deserializeMessage(read.line);
  }
  return performance.now() - start;
}

/** Peak RSS growth (MiB) of a fresh process receiving `file` once. */
async function peakGrowth(transportPath: string, file: string): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, "--peak", file, "--transport", transportPath],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return Number(new TextDecoder().decode(output.stdout).trim());
}

function vmHwmKiB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? NaN);
}

/** The figures at each of `sizes` MiB (1, 10 and 50); peak memory at the largest. */
export async function mcpFraming(
  runs: number,
  transportPath = TRANSPORT,
  sizes: readonly number[] = FRAMING_SIZES,
): Promise<FramingRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "hel-bench-framing-" });
  const rows: FramingRow[] = [];
  const largest = Math.max(...sizes);
  try {
    const tiny = `${dir}/answer-tiny.jsonl`;
    await Deno.writeTextFile(tiny, answerOf("ok"));
    const spawnMs = median(await repeat(runs, () => receiveOnce(transportPath, tiny)));
    for (const mib of sizes) {
      const file = `${dir}/answer-${mib}.jsonl`;
      const line = answerLine(mib);
      await Deno.writeTextFile(file, line);
      const receiveMs = median(await repeat(runs, () => receiveOnce(transportPath, file)));
      const parseMs = median(
        await repeat(runs, () => {
          const start = performance.now();
          JSON.parse(line);
          return Promise.resolve(performance.now() - start);
        }),
      );
      const readerMs = median(await repeat(runs, () => Promise.resolve(readInProcess(line))));
      const row: FramingRow = { mib, receiveMs, spawnMs, parseMs, readerMs };
      if (mib === largest) row.peakGrowthMib = await peakGrowth(transportPath, file);
      rows.push(row);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return rows;
}

/** The size whose peak memory was measured. */
function largestOf(rows: readonly FramingRow[]): number {
  return Math.max(...rows.map((row) => row.mib));
}

/** The report section. */
export function formatMcpFraming(rows: readonly FramingRow[]): string[] {
  return [
    "## MCP: receiving a large result",
    "A stdio server (`cat` of a prepared answer) → the parsed message in hel's transport; " +
    "reading is that minus the same for a 100-byte answer (starting the process), next to " +
    "`JSON.parse` of the same text (target: at most 2×); the reader alone is hel's line reader " +
    "and the SDK's parse in process, on the same text in 64 KiB pieces. Peak memory: how much the peak " +
    `resident size of a fresh process grows while it receives the ${largestOf(rows)} MiB answer ` +
    "(target: about 3× the size).",
    table(
      [
        "result",
        "receive (ms)",
        "reading (ms)",
        "JSON.parse (ms)",
        "reading / parse",
        "reader alone (ms)",
        "reader / parse",
        "peak growth (MiB)",
      ],
      rows.map((row) => [
        `${row.mib} MiB`,
        row.receiveMs.toFixed(1),
        (row.receiveMs - row.spawnMs).toFixed(1),
        row.parseMs.toFixed(1),
        `${((row.receiveMs - row.spawnMs) / row.parseMs).toFixed(2)}×`,
        row.readerMs.toFixed(1),
        `${(row.readerMs / row.parseMs).toFixed(2)}×`,
        row.peakGrowthMib === undefined ? "" : row.peakGrowthMib.toFixed(0),
      ]),
    ),
  ];
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { peak: { type: "string" }, transport: { type: "string" }, sizes: { type: "string" } },
    allowPositionals: true,
  });
  const transportPath = values.transport ?? TRANSPORT;
  if (values.peak) {
    await import(transportPath); // loading the SDK is not what is measured
    const before = vmHwmKiB();
    await receiveOnce(transportPath, values.peak);
    console.log(((vmHwmKiB() - before) / 1024).toFixed(1));
  } else {
    const runs = Number(positionals[0] ?? 5);
    const sizes = values.sizes?.split(",").map(Number) ?? FRAMING_SIZES;
    console.log(formatMcpFraming(await mcpFraming(runs, transportPath, sizes)).join("\n\n"));
  }
}
