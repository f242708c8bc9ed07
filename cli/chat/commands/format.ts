/**
 * How the slash commands write what they print: aligned two-column tables, counts, token
 * figures, ages and one-line cuts of long text. Pure; no outside text is neutralised here.
 *
 * @module
 */
import { codePointLength, groupDigits, headChars } from "../../../core/text.ts";

/** Rows of `[label, text]` as lines, texts aligned two spaces after the longest label. */
export function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...rows.map(([label]) => codePointLength(label)));
  return rows.map(([label, text]) => {
    const pad = " ".repeat(width - codePointLength(label) + 2);
    // A text of several lines keeps its later lines under its first.
    return `  ${label}${pad}${text.replaceAll("\n", `\n  ${" ".repeat(width + 2)}`)}`;
  }).join("\n");
}

/** `1 message`, `42 messages`. */
export function count(n: number, noun: string): string {
  return `${groupDigits(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** A token figure as people read it: `31,000`. */
export function tokens(n: number): string {
  return groupDigits(n);
}

/** How long ago `then` was, from `now` (ms): `just now`, `12 min ago`, `3 h ago`, `2 d ago`. */
export function age(then: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - then) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** The first line of `text`, whitespace runs made one space, cut to `max` characters with `…`. */
export function oneLine(text: string, max: number): string {
  const line = text.trim().split("\n", 1)[0]!.replace(/\s+/g, " ");
  const more = line !== text.trim().replace(/\s+/g, " ");
  if (codePointLength(line) > max) return `${headChars(line, max - 1)}…`;
  return more ? `${line} …` : line;
}
