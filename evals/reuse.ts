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
  | { reuse: true; key: string; record: EvalRecord }
  | { reuse: false; key: string; why: string };

/** The finished record in `runDir`; undefined when there is none (never made, or cut short). */
export async function recordedRun(runDir: string): Promise<EvalRecord | undefined> {
  try {
    const record = JSON.parse(await Deno.readTextFile(`${runDir}/record.json`));
    // record.json is written last: without the runner's identity the run never finished.
    return typeof record?.run?.run_id === "string" ? record : undefined;
  } catch {
    return undefined;
  }
}

async function invalidVerdict(runDir: string): Promise<boolean> {
  try {
    const verdict = JSON.parse(await Deno.readTextFile(`${runDir}/verdict.json`));
    return verdict?.overall === "invalid";
  } catch {
    return false;
  }
}

/**
 * Decides for the run folder `runDir` and the run's current inputs; `fresh` never reuses.
 * `scripted` says whether the endpoint answers as the scripted model now (undefined when not
 * asked, as in a dry run): one URL can be served by the stand-in one day and a real server the
 * next, and a run of the one must not pass for a run of the other.
 */
export async function reuseDecision(
  runDir: string,
  inputs: RunInputs,
  fresh: boolean,
  scripted?: boolean,
): Promise<ReuseDecision> {
  const key = await reuseKey(inputs);
  const record = await recordedRun(runDir);
  if (!record) return { reuse: false, key, why: "new" };
  if (fresh) return { reuse: false, key, why: "again: --fresh" };
  const before = record.provenance;
  if (!before || typeof before.key !== "string") {
    return { reuse: false, key, why: "again: recorded without provenance" };
  }
  if (scripted !== undefined && (before.scripted === true) !== scripted) {
    const [was, now] = scripted
      ? ["another server", "the scripted model"]
      : ["the scripted model", "another server"];
    return { reuse: false, key, why: `again: ${was} answered it, ${now} answers now` };
  }
  if (before.key === key) {
    // An invalid run measured the machine or the API (no record from hel, no model answer),
    // not hel: it is made again rather than kept, so an outage costs no `--fresh` of good runs.
    if (await invalidVerdict(runDir)) return { reuse: false, key, why: "again: it was invalid" };
    return { reuse: true, key, record };
  }
  const changed = differences(before, inputs);
  return {
    reuse: false,
    key,
    why: `again: ${changed.length > 0 ? changed.join(", ") : "inputs"} changed`,
  };
}
