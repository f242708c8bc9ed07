/**
 * Token counts a report may call measured: only what a real server reported. The scripted
 * model's usage is its own size estimate, so its figures are relabelled `estimated`; when a
 * server reported no usage, hel leaves the counts unavailable and the runner estimates them
 * from the request log (about four characters a token), labelled `estimated` too.
 *
 * @module
 */
import type { Metric, RunRecord } from "../agent/record.ts";
import { readJsonLines } from "./raw_log.ts";

/** Characters per token of the rough estimate (the usual rule of thumb for English and code). */
const CHARS_PER_TOKEN = 4;

const estimated = (value: number | null): Metric =>
  value === null ? { value, status: "unavailable" } : { value, status: "estimated" };

const tokensOf = (value: unknown) =>
  value === undefined ? 0 : Math.ceil(JSON.stringify(value).length / CHARS_PER_TOKEN);

/** Input and output tokens estimated from `raw/requests.jsonl`; null without a log. */
async function estimateFromLog(
  runDir: string,
): Promise<{ input: number; output: number } | null> {
  const lines = await readJsonLines(`${runDir}/raw/requests.jsonl`) as {
    request?: unknown;
    response?: { usage?: unknown; [field: string]: unknown };
  }[];
  if (lines.length === 0) return null;
  let input = 0, output = 0;
  for (const line of lines) {
    if (!line?.response) continue; // a failed request was not billed
    input += tokensOf(line.request);
    const { usage: _, ...answer } = line.response;
    output += tokensOf(answer);
  }
  return { input, output };
}

/**
 * The record's usage with honest labels: every token figure `estimated` unless a real server
 * reported it (`scripted` false and hel measured it).
 */
export async function labelTokens(
  record: RunRecord,
  runDir: string,
  scripted: boolean,
): Promise<RunRecord["usage"]> {
  const usage = { ...record.usage };
  const names = ["input_tokens", "output_tokens", "cached_input_tokens"] as const;
  if (scripted) {
    for (const name of names) usage[name] = estimated(usage[name].value);
    return usage;
  }
  if (usage.input_tokens.status === "unavailable" || usage.output_tokens.status === "unavailable") {
    const guess = await estimateFromLog(runDir);
    if (guess) {
      usage.input_tokens = estimated(guess.input);
      usage.output_tokens = estimated(guess.output);
    }
  }
  return usage;
}
