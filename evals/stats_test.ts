/**
 * The statistics against published values: Wilson intervals from Newcombe (1998), "Two-sided
 * confidence intervals for the single proportion", Statistics in Medicine 17:857–872, Table II
 * (method 3, score interval without continuity correction); Fisher's exact test from Fisher's
 * tea-tasting experiment and the worked example of the Wikipedia article (both as R's
 * `fisher.test` reports them).
 */
import { equal, ok, throws } from "node:assert/strict";
import { fisherExact, spread, wilsonInterval } from "./stats.ts";

const close = (actual: number, expected: number, digits: number, what: string) =>
  ok(
    Math.abs(actual - expected) < 0.5 * 10 ** -digits,
    `${what}: ${actual} is not ${expected} to ${digits} decimals`,
  );

Deno.test("wilsonInterval matches Newcombe's table", () => {
  const table: [number, number, number, number][] = [
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ];
  for (const [x, n, low, high] of table) {
    const interval = wilsonInterval(x, n)!;
    close(interval.low, low, 4, `${x}/${n} low`);
    close(interval.high, high, 4, `${x}/${n} high`);
  }
});

Deno.test("wilsonInterval: n/n reaches 1 exactly, no trials give null, impossible counts throw", () => {
  const all = wilsonInterval(3, 3)!;
  equal(all.high, 1);
  close(all.low, 0.4385, 4, "3/3 low");
  equal(wilsonInterval(0, 0), null);
  throws(() => wilsonInterval(4, 3), RangeError);
});

Deno.test("fisherExact: two-sided p-values as published", () => {
  // The lady tasting tea: 3 of 4 milk-first cups named right.
  close(fisherExact(3, 1, 1, 3), 0.4857, 4, "tea");
  // Wikipedia's dieting example: [[1, 9], [11, 3]].
  close(fisherExact(1, 9, 11, 3), 0.002759, 6, "dieting");
  // Complete separation of 5 and 5: 2 / C(10, 5).
  close(fisherExact(5, 0, 0, 5), 2 / 252, 8, "5 vs 5");
  // Identical rows: nothing to see.
  close(fisherExact(2, 2, 2, 2), 1, 9, "equal rows");
  equal(fisherExact(0, 0, 0, 0), 1);
  throws(() => fisherExact(-1, 0, 0, 0), RangeError);
});

Deno.test("fisherExact is symmetric and stays fast at 100x the counts", () => {
  close(fisherExact(9, 3, 1, 11), fisherExact(9, 1, 3, 11), 12, "transposed");
  close(fisherExact(3, 11, 9, 1), fisherExact(9, 1, 3, 11), 12, "rows swapped");
  const p = fisherExact(300, 700, 350, 650);
  ok(p > 0.01 && p < 0.05, `p = ${p}`);
});

Deno.test("spread: min, median and max", () => {
  equal(spread([]), null);
  const odd = spread([5, 1, 3])!;
  equal(`${odd.min} ${odd.median} ${odd.max}`, "1 3 5");
  const even = spread([4, 1, 10, 2])!;
  equal(`${even.min} ${even.median} ${even.max}`, "1 3 10");
});
