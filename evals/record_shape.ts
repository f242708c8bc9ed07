/**
 * Whether a `record.json` is the record of a finished eval run, in the fields the checks and
 * the report read. Run folders can come from elsewhere (`eval merge` copies other machines'
 * shards), so a record is checked before any figure is taken from it: a foreign or broken
 * file is named and refused instead of crashing the report half-way.
 *
 * @module
 */
import { z } from "zod";
import type { EvalRecord } from "./result_file.ts";

const Metric = z.looseObject({
  value: z.number().nullable(),
  status: z.enum(["measured", "estimated", "unavailable"]),
});

const RecordShape = z.looseObject({
  run: z.looseObject({
    run_id: z.string(),
    experiment: z.string(),
    task_id: z.string(),
    condition: z.string(),
    repetition: z.number(),
    started_at: z.string(),
    ended_at: z.string(),
  }),
  harness: z.looseObject({ version: z.string(), build: z.string().optional() }),
  model: z.looseObject({
    requested: z.string(),
    actual: z.string().nullable(),
    base_url: z.string(),
  }),
  outcome: z.looseObject({ termination: z.string(), error: z.string().nullable() }),
  usage: z.looseObject({
    input_tokens: Metric,
    output_tokens: Metric,
    cached_input_tokens: Metric,
    model_calls: Metric,
    wall_time_ms: Metric,
  }),
  events: z.array(z.looseObject({ seq: z.number(), name: z.string(), ok: z.boolean() })),
  provenance: z.looseObject({ scripted: z.boolean() }).optional(),
});

/** The parsed record, or the first problem with it in words (field path and what is wrong). */
export function checkRecord(value: unknown): { record: EvalRecord } | { problem: string } {
  const parsed = RecordShape.safeParse(value);
  if (parsed.success) return { record: parsed.data as unknown as EvalRecord };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length === 0 ? "the file" : issue.path.join(".");
  return { problem: `${field}: ${issue.message}` };
}
