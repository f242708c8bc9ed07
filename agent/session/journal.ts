/**
 * The session journal: `.hel/sessions/<id>/journal.jsonl`, one JSON entry per line, appended as
 * things happen (the run's settings, the system message, each message, each tool result,
 * permission decisions, compaction checkpoints, plugin state, turn ends). Every entry carries
 * the journal version `v`, its time `t`, `n`, the number of messages of the conversation
 * once it is applied (system message included), and `u`, the person's turns in the session so
 * far (absent in journals of an older hel), so `hel sessions` reads only the last line for them.
 *
 * A last line without its newline was torn by a crash or power cut mid-write: it is ignored
 * with a warning, and cut off before the next append. A journal whose version is newer than
 * this hel's is refused.
 *
 * @module
 */
import type { ChatMessage } from "../../core/types.ts";
import { SnapshotError } from "./snapshot.ts";
import { isRecord } from "../../core/is_record.ts";

/** The journal version this hel writes and reads. */
export const JOURNAL_VERSION = 1;

/** The journal file's name in a session folder. */
export const JOURNAL_FILE = "journal.jsonl";

/** The journal file of a session folder. */
export function journalPath(sessionDir: string): string {
  return `${sessionDir}/${JOURNAL_FILE}`;
}

/** What every entry carries. */
interface Stamp {
  v: number;
  /** ISO 8601 time of the event. */
  t: string;
  /** Messages of the conversation after this entry, system message included. */
  n: number;
  /**
   * The person's turns (user messages sent) in the session after this entry, earlier runs and
   * compacted turns included. Absent in journals of an older hel.
   */
  u?: number;
}

/** The body of an entry, by kind. */
export type EntryBody =
  | {
    type: "session";
    session_id: string;
    project: string;
    created_at: string;
    forked_from?: string;
  }
  | { type: "run"; settings: Record<string, unknown> }
  | { type: "system"; content: string }
  | { type: "message"; message: ChatMessage }
  | { type: "permission"; decision: Record<string, unknown> }
  /**
   * The whole conversation after a compaction (or a fork, or a snapshot read once), with the
   * plugins' state then: a resume reads the journal from its last checkpoint on.
   */
  | {
    type: "checkpoint";
    messages: ChatMessage[];
    retained: number;
    replaced: number;
    plugins: Record<string, unknown>;
  }
  | { type: "plugins"; states: Record<string, unknown> }
  | { type: "turn_end"; termination: string; note?: ChatMessage };

/** One journal entry. */
export type JournalEntry = Stamp & EntryBody;

/** The entries of a journal, and how many bytes of the file they fill (the torn rest is not). */
export interface JournalRead {
  entries: JournalEntry[];
  /** Length of the file up to the end of the last complete line. */
  sound: number;
  /** Set when a torn last line was ignored. */
  torn?: string;
}

/** Names a line: by its number, or (0: read from the end) by where it is. */
const at = (lineNumber: number) => lineNumber > 0 ? `line ${lineNumber}` : "a line near the end";

/** Parses one line (`lineNumber` 0 when unknown); throws {@link SnapshotError} saying what is wrong with it. */
export function parseEntry(line: string, lineNumber: number): JournalEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new SnapshotError(`${at(lineNumber)} is not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(value) || typeof value.v !== "number") {
    throw new SnapshotError(`${at(lineNumber)} is not a journal entry`);
  }
  if (value.v > JOURNAL_VERSION) throw newerVersion(value.v);
  if (value.v !== JOURNAL_VERSION) {
    throw new SnapshotError(`${at(lineNumber)} has unknown version ${JSON.stringify(value.v)}`);
  }
  if (typeof value.t !== "string" || !Number.isInteger(value.n)) {
    throw new SnapshotError(`${at(lineNumber)} lacks its time or message count`);
  }
  return value as unknown as JournalEntry;
}

/** The refusal of a journal written by a newer hel. */
export function newerVersion(version: unknown): SnapshotError {
  return new SnapshotError(
    `it was written by a newer hel (journal version ${JSON.stringify(version)}; this hel ` +
      `reads version ${JOURNAL_VERSION}); update hel to resume it`,
    { damaged: false },
  );
}

/**
 * Splits journal text into entries. A last line without its newline is torn: it is left out
 * and reported in `torn`. Any other bad line makes the journal damaged.
 */
export function parseJournal(text: string): JournalRead {
  const end = text.lastIndexOf("\n") + 1;
  const entries: JournalEntry[] = [];
  let start = 0;
  let lineNumber = 0;
  while (start < end) {
    const stop = text.indexOf("\n", start);
    lineNumber++;
    const line = text.slice(start, stop);
    if (line.trim() !== "") entries.push(parseEntry(line, lineNumber));
    start = stop + 1;
  }
  const sound = new TextEncoder().encode(text.slice(0, end)).length;
  if (end === text.length) return { entries, sound };
  return { entries, sound, ...tornRest(text.length, end) };
}

/** A plain file, or a refusal: a link or a FIFO in the journal's place is never read. */
export async function checkJournalFile(path: string): Promise<void> {
  const info = await Deno.lstat(path);
  if (info.isSymlink) {
    throw new SnapshotError(`${JOURNAL_FILE} is a symbolic link; hel never follows one there`);
  }
  if (!info.isFile) throw new SnapshotError(`${JOURNAL_FILE} is not a regular file`);
}

/** Reads a session's whole journal. Throws `NotFound` when there is none. */
export async function readJournal(sessionDir: string): Promise<JournalRead> {
  const path = journalPath(sessionDir);
  await checkJournalFile(path);
  return parseJournal(await Deno.readTextFile(path));
}

/**
 * Reads what a resume needs: the first entry and every entry from the last checkpoint on,
 * reading backwards from the end (a chunk, then four times more, ...) so the history before
 * the last compaction is never loaded. Lines before the checkpoint are not checked.
 */
export async function readJournalForResume(sessionDir: string): Promise<JournalRead> {
  const path = journalPath(sessionDir);
  await checkJournalFile(path);
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  const first = await lineAt(file, 0, size, "forward");
  if (first === undefined) return { entries: [], sound: 0, ...tornRest(size, 0) };
  const head = parseEntry(first, 1);
  for (let span = CHUNK;; span *= 4) {
    const from = Math.max(0, size - span);
    const text = await readText(file, from, size - from);
    const end = text.lastIndexOf("\n") + 1;
    const sound = size - new TextEncoder().encode(text.slice(end)).length;
    // Unless the chunk starts the file, its first line may be cut by the chunk's edge.
    const start = from === 0 ? 0 : text.indexOf("\n") + 1;
    const lines = start < end ? text.slice(start, end - 1).split("\n") : [];
    const entries: JournalEntry[] = [];
    for (let index = lines.length - 1; index >= 0; index--) {
      if (lines[index]!.trim() === "") continue;
      const entry = parseEntry(lines[index]!, from === 0 ? index + 1 : 0);
      entries.unshift(entry);
      if (entry.type === "checkpoint" && (from !== 0 || index !== 0)) {
        return { entries: [head, ...entries], sound, ...tornRest(size, sound) };
      }
    }
    if (from === 0) return { entries, sound, ...tornRest(size, sound) };
  }
}

function tornRest(size: number, sound: number): { torn?: string } {
  return sound < size ? { torn: "its last line was cut off mid-write and is ignored" } : {};
}

async function readText(file: Deno.FsFile, from: number, length: number): Promise<string> {
  return new TextDecoder().decode(await readBytes(file, from, length));
}

/** Up to `length` bytes of an open file from `from` on (fewer at its end). */
export async function readBytes(
  file: Deno.FsFile,
  from: number,
  length: number,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  await file.seek(from, Deno.SeekMode.Start);
  let read = 0;
  while (read < length) {
    const got = await file.read(bytes.subarray(read));
    if (got === null) break;
    read += got;
  }
  return bytes.subarray(0, read);
}

/** The first and last complete entries, read without loading the journal whole. */
export interface JournalEnds {
  head: JournalEntry;
  tail: JournalEntry;
}

const CHUNK = 64 * 1024;

/**
 * Reads the first and the last complete entry of a journal: a chunk at each end (more only when
 * a line is longer). Throws `NotFound` when there is none, {@link SnapshotError} when damaged.
 */
export async function readJournalEnds(sessionDir: string): Promise<JournalEnds | undefined> {
  const path = journalPath(sessionDir);
  await checkJournalFile(path);
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  const first = await lineAt(file, 0, size, "forward");
  if (first === undefined) return undefined;
  const head = parseEntry(first, 1);
  const last = await lineAt(file, size, size, "backward");
  return { head, tail: last === undefined ? head : parseEntry(last, 0) };
}

/** The last complete line of an open journal of `size` bytes, undefined when it has none. */
export function lastLine(file: Deno.FsFile, size: number): Promise<string | undefined> {
  // Most last lines (a turn's end) are short: start small, read more only for a longer one.
  return lineAt(file, size, size, "backward", 4 * 1024);
}

/** The first complete line from `offset` on, or the last complete line before it. */
async function lineAt(
  file: Deno.FsFile,
  offset: number,
  size: number,
  way: string,
  firstSpan = CHUNK,
) {
  let span = firstSpan;
  while (true) {
    const from = way === "forward" ? offset : Math.max(0, offset - span);
    const length = Math.min(span, way === "forward" ? size - from : offset - from);
    const text = await readText(file, from, length);
    if (way === "forward") {
      const stop = text.indexOf("\n");
      if (stop >= 0) return text.slice(0, stop);
      if (from + length >= size) return undefined;
    } else {
      const stop = text.lastIndexOf("\n");
      const before = text.lastIndexOf("\n", stop - 1);
      if (before >= 0 || (from === 0 && stop >= 0)) return text.slice(before + 1, stop);
      if (from === 0) return undefined;
    }
    span *= 4;
  }
}
