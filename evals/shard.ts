/**
 * `--shard K/N`: one of N deterministic slices of a lab's planned runs, so N machines (the
 * GitHub workflow's matrix jobs) share a lab without talking to each other. Runs are dealt
 * round-robin by their place in the plan, which depends only on the lab file and the chosen
 * conditions: every shard computes the same plan and takes every N-th run from its own offset,
 * so the slices are disjoint, cover the plan, and differ in size by at most one run (a hash of
 * the run id would be as stable but can leave one shard with most of a small lab).
 *
 * @module
 */
import { SpecError } from "./spec.ts";

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `K/N` (1 <= K <= N); a SpecError saying what to write otherwise. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : NaN, count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index < 1 || index > count) {
    throw new SpecError(
      `--shard ${text}: expected K/N with 1 <= K <= N, e.g. --shard 2/3 for the second of three`,
    );
  }
  return { index, count };
}

/** The runs of `plan` that belong to `shard` (all of them without one), in plan order. */
export function shardOf<T>(plan: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...plan];
  return plan.filter((_, position) => position % shard.count === shard.index - 1);
}
