/**
 * What drawing a markdown answer costs the chat (cli/chat/markdown.ts): a generated answer of
 * headings, paragraphs, lists, code blocks in three languages, tables and quotes, at 10 KB,
 * 100 KB and 1 MB, rendered whole, streamed in 4 KB deltas and in 20-byte deltas (about what
 * a model's tokens bring), and what drawing the live part (the block still open) costs once.
 * Linear cost shows as the same time per KB at every size.
 *
 * @module
 */
import { MarkdownStream, renderMarkdown } from "../cli/chat/markdown.ts";
import { median } from "./stats.ts";
import { table } from "./table.ts";

/** Figures for one answer size (medians, ms). */
export interface MarkdownRenderRow {
  bytes: number;
  wholeMs: number;
  /** Streamed in 4 KB deltas, settled blocks taken after each. */
  deltas4kMs: number;
  /** Streamed in 20-byte deltas. */
  deltas20Ms: number;
  /** One drawing of the live part while the answer streams (µs, averaged over many). */
  liveDrawUs: number;
}

const OPTIONS = { width: 80, color: true };

/** One section of the answer; `n` varies the text so no two sections are alike. */
function section(n: number): string {
  const code = [
    "```ts\n" +
    Array.from(
      { length: 10 },
      (_, i) =>
        `export function step${n}_${i}(value: number): string {\n  return \`\${value * ${i}}\`; // ${i}\n}`,
    )
      .join("\n") +
    "\n```",
    "```python\nclass Item" + n + ':\n    """A record."""\n' +
    Array.from(
      { length: 12 },
      (_, i) => `    def get_${i}(self):\n        return self.v${i}  # ${n}`,
    )
      .join("\n") +
    "\n```",
    "```sh\n" + Array.from({ length: 8 }, (_, i) => `deno test -A tests/case_${n}_${i}_test.ts`)
      .join(" && \\\n  ") +
    "\n```",
  ][n % 3]!;
  const rows = Array.from(
    { length: 8 },
    (_, i) => `| \`row_${n}_${i}\` | ${(n * 37 + i * 11) % 1000} | ${i % 2 ? "yes" : "no"} |`,
  );
  return [
    `## Part ${n}: what changes`,
    `This part (number ${n}) explains **why** the change is needed, with *some emphasis*, a ` +
    `\`function_${n}()\` call and a [reference](https://example.com/docs/${n}). It is long ` +
    "enough to wrap over several lines at eighty columns, as answers usually are.",
    `- the first point about part ${n}\n- a second point with \`inline code\`\n` +
    "  - a nested detail\n  - another detail\n- a last point",
    code,
    `| name | count | done |\n| --- | ---: | :---: |\n${rows.join("\n")}`,
    `> A note for part ${n}: check the output before going on.`,
    `1. run the tests\n2. read the diff\n3. commit part ${n}`,
  ].join("\n\n");
}

/** A markdown answer of about `bytes` characters, always the same for a size. */
export function markdownAnswer(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let n = 1; length < bytes; n++) {
    const part = section(n);
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join("\n\n").slice(0, bytes);
}

/** Milliseconds to stream `answer` in `delta`-sized pieces, drawing the live part after every `liveEvery`th. */
function streamed(answer: string, delta: number, liveEvery = 0): number {
  const started = performance.now();
  const stream = new MarkdownStream(OPTIONS);
  for (let at = 0, step = 1; at < answer.length; at += delta, step++) {
    stream.push(answer.slice(at, at + delta));
    stream.takeSettled();
    if (liveEvery > 0 && step % liveEvery === 0) stream.live();
  }
  stream.finish();
  return performance.now() - started;
}

/** Drawings of the live part: after every tenth 20-byte delta, spread over the whole answer. */
const LIVE_EVERY = 10;

function timed(repeats: number, measure: () => number): number {
  return median(Array.from({ length: repeats }, measure));
}

/** The figures at 10 KB, 100 KB and 1 MB (or `sizes`), each a median of up to `runs`. */
export function markdownRender(
  runs: number,
  sizes: readonly number[] = [10_000, 100_000, 1_000_000],
): MarkdownRenderRow[] {
  // Warm the JIT and load every highlighted language once, so the first size is not charged.
  renderMarkdown(markdownAnswer(20_000), OPTIONS);
  return sizes.map((bytes) => {
    const answer = markdownAnswer(bytes);
    const repeats = Math.max(1, Math.min(runs, Math.round(300_000 / bytes)));
    const deltas20Ms = timed(repeats, () => streamed(answer, 20));
    const draws = Math.floor(Math.ceil(bytes / 20) / LIVE_EVERY);
    const withLiveMs = timed(repeats, () => streamed(answer, 20, LIVE_EVERY));
    return {
      bytes,
      wholeMs: timed(repeats, () => {
        const started = performance.now();
        renderMarkdown(answer, OPTIONS);
        return performance.now() - started;
      }),
      deltas4kMs: timed(repeats, () => streamed(answer, 4096)),
      deltas20Ms,
      liveDrawUs: Math.max(0, withLiveMs - deltas20Ms) * 1000 / draws,
    };
  });
}

/** The report section. */
export function formatMarkdownRender(rows: readonly MarkdownRenderRow[]): string[] {
  const size = (bytes: number) =>
    bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes / 1_000} KB`;
  const cell = (ms: number, bytes: number) =>
    `${ms.toFixed(0)} (${(ms / (bytes / 1000)).toFixed(2)}/KB)`;
  return [
    "## Markdown rendering",
    "A generated answer (headings, paragraphs, lists, code in three languages, tables, " +
    "quotes) drawn 80 columns wide in colour; ms, and ms per KB in brackets (the same at " +
    "every size when the cost is linear). A live drawing is the block still open drawn once, " +
    "as the chat does when it redraws (µs, over a drawing every 200 bytes).",
    table(
      ["answer", "whole", "4 KB deltas", "20-byte deltas", "one live drawing (µs)"],
      rows.map((row) => [
        size(row.bytes),
        cell(row.wholeMs, row.bytes),
        cell(row.deltas4kMs, row.bytes),
        cell(row.deltas20Ms, row.bytes),
        row.liveDrawUs.toFixed(0),
      ]),
    ),
  ];
}

if (import.meta.main) {
  console.log(formatMarkdownRender(markdownRender(Number(Deno.args[0] ?? 3))).join("\n\n"));
}
