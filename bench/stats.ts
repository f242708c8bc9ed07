/**
 * Small statistics for the benchmark: every timing it reports is the median of several runs.
 *
 * @module
 */

/** The median (mean of the middle two for an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Runs `fn` `count` times one after another and returns the results in order. */
export async function repeat<T>(count: number, fn: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let index = 0; index < count; index++) results.push(await fn(index));
  return results;
}

/** Differences between neighbours: `[b - a, c - b, ...]`. */
export function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((time, index) => time - times[index]!);
}

/** Milliseconds rounded to 0.1. */
export function ms(value: number): number {
  return Math.round(value * 10) / 10;
}
