/**
 * Fitting text that is already neutralised (no controls, no newlines) into terminal columns, so
 * the permission question knows exactly how many rows it takes: wide characters count two
 * columns. Linear in the text's length, since a file's line may be megabytes long.
 *
 * @module
 */
import { columnsOf } from "../../kit/trust/review_text.ts";

export { columnsOf };

/** `text` cut into rows of at most `width` columns, character by character; at least one row. */
export function wrapColumns(text: string, width: number): string[] {
  const rows: string[] = [];
  let row = "";
  let used = 0;
  for (const char of text) {
    const columns = columnsOf(char);
    if (used + columns > width && row !== "") {
      rows.push(row);
      row = "";
      used = 0;
    }
    row += char;
    used += columns;
  }
  rows.push(row);
  return rows;
}

/**
 * `text` in rows of at most `width` columns, broken between words where it can be; rows after
 * the first start with `indent` spaces (counted in the width).
 */
export function wrapWords(text: string, width: number, indent = 0): string[] {
  const rows: string[] = [];
  let row = "";
  const room = () => (rows.length === 0 ? width : width - indent);
  const push = () => {
    rows.push(rows.length === 0 ? row : " ".repeat(indent) + row);
    row = "";
  };
  for (const word of text.split(" ")) {
    const joined = row === "" ? word : `${row} ${word}`;
    if (columnsOf(joined) <= room()) {
      row = joined;
      continue;
    }
    if (row !== "") push();
    // A word longer than a row is cut where the row ends.
    const pieces = wrapColumns(word, Math.max(1, room()));
    for (const piece of pieces.slice(0, -1)) {
      row = piece;
      push();
    }
    row = pieces.at(-1)!;
  }
  push();
  return rows;
}
