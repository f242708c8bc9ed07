/**
 * Small text helpers shared by the core and plugins: token estimates, head/tail cuts, counts
 * with grouped digits and the edit distance behind "did you mean" hints.
 *
 * @module
 */

/**
 * Estimated tokens of a value: the characters (Unicode code points) of its JSON encoding
 * divided by four, rounded up. The same rule everywhere keeps thresholds comparable.
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(codePointLength(JSON.stringify(value) ?? "") / 4);
}

/** Length in Unicode code points (not UTF-16 units), so Korean and emoji count once. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The first `count` code points of `text`. */
export function headChars(text: string, count: number): string {
  return Array.from(text).slice(0, count).join("");
}

/** `text` cut to its first `max` code points with `…` after, or whole when it fits. */
export function clipChars(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? `${points.slice(0, max).join("")}…` : text;
}

/** The last `count` code points of `text`. */
export function tailChars(text: string, count: number): string {
  if (count <= 0) return "";
  return Array.from(text).slice(-count).join("");
}

/**
 * The first `head` and last `tail` code points of `text` around the line `marker` builds from
 * how many code points were left out. For texts longer than `head + tail`.
 */
export function elideMiddle(
  text: string,
  head: number,
  tail: number,
  marker: (omitted: number) => string,
): string {
  const chars = Array.from(text);
  return `${chars.slice(0, head).join("")}\n\n${marker(chars.length - head - tail)}\n\n` +
    chars.slice(chars.length - tail).join("");
}

/**
 * A whole number with its digits grouped by commas, as `toLocaleString("en-US")` writes it
 * (`1,234,567`), without loading the locale data that costs a start 10–20 ms of CPU; other
 * numbers are left to `toLocaleString`.
 */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
  return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** Levenshtein distance: the fewest one-character edits that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
