/**
 * Whether a planned run may reuse the run recorded in its folder: only when the recorded
 * provenance key equals the key of the run about to be made (see provenance.ts). Otherwise
 * the decision says, in words, why the run is made (again).
 *
 * @module
 */
import { differences, reuseKey, type RunInputs } from "./provenance.ts";
import type { EvalRecord } from "./result_file.ts";

/** Reuse the recorded run, or make it, and why. */
export type ReuseDecision =
  | { reuse: true; key: string }
  | { reuse: false; key: string; why: string };

async function recorded(runDir: string): Promise<EvalRecord | undefined> {
  try {
    const record = JSON.parse(await Deno.readTextFile(`${runDir}/record.json`));
    // record.json is written last: without the runner's identity the run never finished.
    return typeof record?.run?.run_id === "string" ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Decides for the run folder `runDir` and the run's current inputs; `fresh` never reuses. */
export async function reuseDecision(
  runDir: string,
  inputs: RunInputs,
  fresh: boolean,
): Promise<ReuseDecision> {
  const key = await reuseKey(inputs);
  const record = await recorded(runDir);
  if (!record) return { reuse: false, key, why: "new" };
  if (fresh) return { reuse: false, key, why: "again: --fresh" };
  const before = record.provenance;
  if (!before || typeof before.key !== "string") {
    return { reuse: false, key, why: "again: recorded without provenance" };
  }
  if (before.key === key) return { reuse: true, key };
  const changed = differences(before, inputs);
  return {
    reuse: false,
    key,
    why: `again: ${changed.length > 0 ? changed.join(", ") : "inputs"} changed`,
  };
}
