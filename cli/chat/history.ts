/**
 * The chat's prompt history, kept per project in `<project>/.hel/history.jsonl` (one JSON
 * object a line, newest last), so ↑ and Ctrl-R find what was typed in earlier chats there. The
 * file is bounded, written without following links (a cloned repository or a command can
 * plant one there), and a damaged line costs only that line.
 *
 * @module
 */
import { join } from "node:path";
import { appendLine, lstatOrUndefined, writeFileAtomic } from "../../kit/safe_write.ts";

/** The most entries kept, in memory and in the file. */
export const HISTORY_LIMIT = 1000;

/**
 * Entries longer than this (in UTF-16 units) are kept for this chat but not written: a pasted
 * log would otherwise make every rewrite of the file slow.
 */
export const STORED_ENTRY_LIMIT = 100_000;

/** The most of the file that is read: its newest part, whatever a planted file holds. */
const READ_LIMIT_BYTES = 16 * 1024 * 1024;

/** A project's prompt history. */
export interface PromptHistory {
  /** What was sent, oldest first. */
  entries(): readonly string[];
  /**
   * Records a sent prompt (not when it repeats the newest entry) and writes it to the file.
   * Rejects when the file cannot be written (an {@link UnsafePathError} for a planted link);
   * the entry is kept for this chat either way.
   */
  add(text: string): Promise<void>;
}

/** Where a project's history lives. */
export function historyPath(projectRoot: string): string {
  return join(projectRoot, ".hel", "history.jsonl");
}

/** The prompts in the file's lines; a line that is not a prompt record is skipped. */
export function parseHistory(content: string): string[] {
  const entries: string[] = [];
  for (const line of content.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const record: unknown = JSON.parse(line);
      const text = (record as { text?: unknown } | null)?.text;
      if (typeof text === "string" && text !== "") entries.push(text);
    } catch {
      // A torn or hand-edited line: the others still count.
    }
  }
  return entries;
}

const lineOf = (text: string) => JSON.stringify({ text });

/**
 * The newest part of the file at `path`: nothing when it is missing or is not a plain file (a
 * link is not followed), at most {@link READ_LIMIT_BYTES}, starting at a whole line.
 */
async function readNewest(path: string): Promise<string> {
  const info = await lstatOrUndefined(path);
  if (!info?.isFile) return "";
  using file = await Deno.open(path, { read: true });
  const opened = await file.stat();
  // Replaced by a link or another file since the check: read nothing rather than follow it.
  if (!opened.isFile || opened.ino !== info.ino || opened.dev !== info.dev) return "";
  const skipped = Math.max(0, opened.size - READ_LIMIT_BYTES);
  await file.seek(skipped, Deno.SeekMode.Start);
  const bytes = new Uint8Array(opened.size - skipped);
  let filled = 0;
  while (filled < bytes.length) {
    const read = await file.read(bytes.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  const text = new TextDecoder().decode(bytes.subarray(0, filled));
  return skipped > 0 ? text.slice(text.indexOf("\n") + 1) : text;
}

/** Opens the history of the project at `projectRoot` (an empty one when there is no file). */
export async function openHistory(projectRoot: string): Promise<PromptHistory> {
  const path = historyPath(projectRoot);
  const entries = parseHistory(await readNewest(path).catch(() => "")).slice(-HISTORY_LIMIT);
  /** Lines the file holds, as far as this chat knows: past the limit it is rewritten. */
  let storedLines = entries.length;
  // One write at a time, in the order the prompts were sent.
  let writing: Promise<void> = Promise.resolve();

  async function store(text: string): Promise<void> {
    if (storedLines < HISTORY_LIMIT) {
      await appendLine(projectRoot, path, lineOf(text));
      storedLines++;
      return;
    }
    // Read again: another chat in this project may have added its own prompts meanwhile.
    const kept = parseHistory(await readNewest(path))
      .filter((entry) => entry.length <= STORED_ENTRY_LIMIT)
      .concat(text).slice(-HISTORY_LIMIT);
    await writeFileAtomic(projectRoot, path, kept.map((entry) => `${lineOf(entry)}\n`).join(""));
    storedLines = kept.length;
  }

  return {
    entries: () => entries,
    add(text: string): Promise<void> {
      if (text.trim() === "" || entries.at(-1) === text) return Promise.resolve();
      entries.push(text);
      if (entries.length > HISTORY_LIMIT) entries.splice(0, entries.length - HISTORY_LIMIT);
      if (text.length > STORED_ENTRY_LIMIT) return Promise.resolve();
      const written = writing.then(() => store(text));
      writing = written.catch(() => {});
      return written;
    },
  };
}

/**
 * Ctrl-R: the index of the newest entry before `before` (all of them when absent) that holds
 * `query`, ignoring case; undefined when none does or the query is empty. Pass the last match
 * as `before` to find the next older one.
 */
export function searchHistory(
  entries: readonly string[],
  query: string,
  before: number = entries.length,
): number | undefined {
  if (query === "") return undefined;
  const wanted = query.toLowerCase();
  for (let index = Math.min(before, entries.length) - 1; index >= 0; index--) {
    if (entries[index]!.toLowerCase().includes(wanted)) return index;
  }
  return undefined;
}
