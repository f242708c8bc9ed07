/**
 * The few statistics a report needs: a confidence interval for a pass rate (Wilson score), a
 * test of whether two conditions' pass rates differ (Fisher's exact test, two-sided), and the
 * spread of a figure over runs (min, median, max). No npm package of standing covers these
 * without pulling in a whole numerics library, and the formulas are short and textbook; the
 * tests check them against published values.
 *
 * @module
 */

/** z for a two-sided 95% interval (the 97.5th percentile of the standard normal). */
const Z95 = 1.959963984540054;

/** A closed interval of proportions, each end in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval for `successes` out of `trials` (95% unless `z` says otherwise).
 * Unlike the textbook p ± z·√(p(1-p)/n) it stays inside [0, 1] and is sensible for the small
 * counts and 0/n or n/n results evals produce. Null when there are no trials.
 */
export function wilsonInterval(successes: number, trials: number, z = Z95): Interval | null {
  if (trials <= 0) return null;
  if (successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval: ${successes} successes out of ${trials} trials`);
  }
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials));
  // At 0/n and n/n one end is exactly 0 or 1; rounding must not push it past.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === trials ? 1 : Math.min(1, centre + half),
  };
}

/** log(k!) for k = 0..n, by summing logarithms (exact enough and linear in n). */
function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = table[k - 1]! + Math.log(k);
  return table;
}

/**
 * Fisher's exact test on the 2×2 table [[a, b], [c, d]] (for evals: rows are two conditions,
 * columns passes and failures). Returns the two-sided p-value: the total probability, with the
 * margins fixed, of every table no more likely than the one observed (the rule R's
 * `fisher.test` uses, with the same small relative tolerance for ties).
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  for (const cell of [a, b, c, d]) {
    if (!Number.isInteger(cell) || cell < 0) {
      throw new RangeError(`fisherExact: cells must be counts, got ${[a, b, c, d].join(", ")}`);
    }
  }
  const row1 = a + b, row2 = c + d, col1 = a + c, n = a + b + c + d;
  if (n === 0) return 1;
  const lf = logFactorials(n);
  // Hypergeometric probability of a table whose top-left cell is x, given the margins.
  const logP = (x: number) =>
    lf[row1]! + lf[row2]! + lf[col1]! + lf[n - col1]! -
    (lf[n]! + lf[x]! + lf[row1 - x]! + lf[col1 - x]! + lf[row2 - col1 + x]!);
  const observed = logP(a);
  const tolerance = 1e-7;
  let p = 0;
  for (let x = Math.max(0, col1 - row2); x <= Math.min(row1, col1); x++) {
    const lp = logP(x);
    if (lp <= observed + Math.log1p(tolerance)) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

/** Smallest, median and largest of some figures. */
export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** Min, median (mean of the middle two for an even count) and max; null for no values. */
export function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]! };
}
