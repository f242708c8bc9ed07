/**
 * The table of sessions `hel sessions` prints and the `--resume` picker shows: short id, age,
 * the person's turns, the model, and the first prompt cut to fit the width. The prompt and any
 * problem are outside text (a cloned repository can ship any journal): whitespace is joined,
 * control characters are shown escaped, before the text is measured and cut.
 *
 * @module
 */
import { escapeControlCharacters } from "../core/neutralise.ts";
import type { SessionSummary } from "../agent/session/catalog.ts";
import { shortId } from "../agent/session/session_id.ts";
import { age } from "./chat/commands/format.ts";
import { columns, cutToWidth } from "./chat/styled_text.ts";

/** The table's header line and one line per row, each at most `width` columns. */
export interface SessionTable {
  header: string;
  lines: string[];
}

/** Columns a model name may take before it is cut. */
const MODEL_COLUMNS = 24;

/** The fewest columns left to the first prompt, whatever the width. */
const MIN_PROMPT_COLUMNS = 16;

/** `text` on one line (whitespace runs joined), escaped, cut to `width` columns with `…`. */
export function fitted(text: string, width: number): string {
  const line = escapeControlCharacters(text.replace(/\s+/g, " ").trim());
  if (columns(line) <= width) return line;
  const cut = cutToWidth([{ text: line, style: "" }], Math.max(1, width - 1))[0] ?? [];
  return `${cut.map((span) => span.text).join("")}…`;
}

/** What the last column says of a row. */
function about(row: SessionSummary): string {
  const busy = row.busy ? "(in use) " : "";
  if (row.problem !== undefined) return `${busy}unreadable: ${row.problem}`;
  if (row.updatedAt === undefined) return `${busy}(no saved conversation)`;
  return busy + (row.firstPrompt ?? "(first prompt not found)");
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - columns(text)));

/** The table of `rows`, as they are ordered, `width` columns wide; `now` in ms for the ages. */
export function sessionTable(
  rows: readonly SessionSummary[],
  width: number,
  now: number,
): SessionTable {
  const cells = rows.map((row) => ({
    id: shortId(row.id),
    age: row.updatedAt === undefined ? "-" : age(Date.parse(row.updatedAt), now),
    turns: row.turns === undefined ? "-" : String(row.turns),
    model: fitted(row.model ?? "-", MODEL_COLUMNS),
    about: about(row),
  }));
  const head = { id: "ID", age: "AGE", turns: "TURNS", model: "MODEL", about: "FIRST PROMPT" };
  const all = [head, ...cells];
  const widest = (key: "id" | "age" | "turns" | "model") =>
    Math.max(...all.map((cell) => columns(cell[key])));
  const sizes = { id: widest("id"), age: widest("age"), turns: widest("turns") };
  const model = widest("model");
  const used = sizes.id + sizes.age + sizes.turns + model + 4 * 2;
  const room = Math.max(MIN_PROMPT_COLUMNS, width - used);
  const line = (cell: typeof head) =>
    [
      pad(cell.id, sizes.id),
      pad(cell.age, sizes.age),
      " ".repeat(sizes.turns - columns(cell.turns)) + cell.turns,
      pad(cell.model, model),
      fitted(cell.about, room),
    ].join("  ").trimEnd();
  return { header: line(head), lines: cells.map(line) };
}
