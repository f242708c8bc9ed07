/**
 * Fitting escaped text into terminal columns for the trust review: how wide a text is drawn,
 * cuts that keep both ends and say how much was left out, and wrapping into rows. Every
 * function expects text whose control characters are already escaped (no newlines or tabs).
 *
 * @module
 */
import { eastAsianWidth } from "get-east-asian-width";
import { groupDigits } from "../../core/text.ts";

/** Columns one code point takes: East Asian wide and fullwidth characters take two. */
function widthOf(char: string): number {
  return eastAsianWidth(char.codePointAt(0)!);
}

/** Columns `text` takes on a terminal (never less than it really takes). */
export function columnsOf(text: string): number {
  let columns = 0;
  for (const char of text) columns += widthOf(char);
  return columns;
}

/** The longest start of `units` that fits in `columns`, as a count of units. */
function fittingHead(units: readonly string[], columns: number): number {
  let used = 0;
  let count = 0;
  while (count < units.length && used + columnsOf(units[count]!) <= columns) {
    used += columnsOf(units[count]!);
    count++;
  }
  return count;
}

/**
 * The code points of `text`, or when it is wider than `columns` its first and last code points
 * around one unit, `…[N characters cut]…`, so the whole fits in `columns`.
 */
function cutUnits(text: string, columns: number): string[] {
  const chars = Array.from(text);
  if (columnsOf(text) <= columns) return chars;
  const marker = (cut: number) => `…[${groupDigits(cut)} characters cut]…`;
  // The marker for every character is at least as wide as the one for fewer.
  const room = Math.max(0, columns - columnsOf(marker(chars.length)));
  const head = fittingHead(chars, Math.ceil(room / 2));
  const reversed = chars.slice(head).reverse();
  const tail = fittingHead(reversed, room - columnsOf(chars.slice(0, head).join("")));
  return [
    ...chars.slice(0, head),
    marker(chars.length - head - tail),
    ...chars.slice(chars.length - tail),
  ];
}

/**
 * `text` when it fits in `columns`; otherwise its start and its end around
 * `…[N characters cut]…`. Both ends stay: a harmless start cannot hide what a command ends with.
 */
export function cutToColumns(text: string, columns: number): string {
  return cutUnits(text, columns).join("");
}

/**
 * `text` in rows: the first `first` columns wide, the others `rest` wide, at most `maxRows`
 * rows; a text that would need more is cut in the middle first (see {@link cutToColumns}), and
 * the cut's note is never split across rows.
 */
export function wrapToRows(text: string, first: number, rest: number, maxRows: number): string[] {
  const capacity = first + rest * (maxRows - 1);
  // Room for moving the note whole to the next row, and a wide character at each row's end.
  const slack = maxRows > 1 ? columnsOf("…[1,000,000 characters cut]…") + maxRows - 1 : 0;
  let units = columnsOf(text) <= capacity ? Array.from(text) : cutUnits(text, capacity - slack);
  const rows: string[] = [];
  let width = first;
  while (units.length > 0 || rows.length === 0) {
    const take = rows.length === maxRows - 1
      ? units.length
      : Math.max(1, fittingHead(units, width));
    // Only when the slack was not enough: the last row is cut again rather than overflow.
    rows.push(cutToColumns(units.slice(0, take).join(""), width));
    units = units.slice(take);
    width = rest;
  }
  return rows;
}
/**
 * Names joined by ", " in at most `columns`, ending in `+N more` when not all fit; each name
 * is cut to fit on its own.
 */
export function fitNames(names: readonly string[], columns: number): string {
  const shown: string[] = [];
  for (const [index, name] of names.entries()) {
    const left = names.length - index - 1;
    const suffix = left > 0 ? `, +${left} more` : "";
    const text = [...shown, cutToColumns(name, Math.max(12, columns - 12))].join(", ");
    if (columnsOf(text + suffix) > columns) {
      const more = `+${names.length - index} more`;
      return shown.length === 0 ? more : `${shown.join(", ")}, ${more}`;
    }
    shown.push(cutToColumns(name, Math.max(12, columns - 12)));
  }
  return shown.join(", ");
}
