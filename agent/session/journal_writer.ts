/**
 * Appending to a session's journal. The file is opened once, link-safely, and kept open while
 * the session is held, so an append costs one write whatever the journal's length. Entries are
 * queued by {@link JournalWriter.add} (callable from synchronous event sinks) and written, in
 * order, by {@link JournalWriter.flush}: the run flushes before every model request and after
 * every tool result, so a crash loses at most what was in flight.
 *
 * A new session's journal is deferred ({@link deferredJournalWriter}): its entries wait in
 * memory until the model's first answer, so a run that never got one leaves no session.
 *
 * @module
 */
import { openFileNoFollow } from "../../kit/safe_write.ts";
import { type EntryBody, JOURNAL_VERSION, type JournalEntry, journalPath } from "./journal.ts";

/** An open journal, for the holder of the session's lock only. */
export interface JournalWriter {
  /** Queues an entry; `n` is the conversation's message count after it. */
  add(body: EntryBody, n: number): void;
  /**
   * Writes the queued entries, after any flush still running. Throws when the write fails (they
   * stay queued for the next flush).
   */
  flush(): Promise<void>;
  /** Flushes, then makes the file durable on disk (at the end of each turn). */
  sync(): Promise<void>;
  close(): void;
}

/** A journal whose file is created only once {@link DeferredJournalWriter.begin} was called. */
export interface DeferredJournalWriter extends JournalWriter {
  /** From the next flush on, entries are written (the file is created then). */
  begin(): void;
  /** True once {@link begin} was called. */
  readonly begun: boolean;
}

/**
 * Opens (creating it when missing) the journal file of `sessionDir` for appending. `sound` is
 * the length of its complete lines: a torn rest is cut off first, so the next entry starts a line.
 */
export async function openJournalFile(sessionDir: string, sound?: number): Promise<Deno.FsFile> {
  const file = await openFileNoFollow(sessionDir, journalPath(sessionDir), {
    read: true,
    mode: 0o600,
  });
  try {
    const size = (await file.stat()).size;
    if (sound !== undefined && sound < size) await file.truncate(sound);
    await file.seek(0, Deno.SeekMode.End);
  } catch (error) {
    file.close();
    throw error;
  }
  return file;
}

/** Where a journal starts from. */
export interface JournalStart {
  /** Length of the file's complete lines (see {@link openJournalFile}). */
  sound?: number;
  /** The person's turns in the session so far (stamped `u` on every entry). */
  turns?: number;
}

/** Opens the journal of `sessionDir` for appending (see {@link openJournalFile}). */
export async function openJournalWriter(
  sessionDir: string,
  start: JournalStart = {},
): Promise<JournalWriter> {
  const file = await openJournalFile(sessionDir, start.sound);
  return writerOn(() => Promise.resolve(file), start.turns ?? 0);
}

/**
 * A journal whose entries are kept in memory until {@link DeferredJournalWriter.begin}; the
 * first flush after it calls `open` (which creates the session's folder and file). When `open`
 * fails the flush throws, the entries stay queued, and the next flush calls it again.
 */
export function deferredJournalWriter(
  open: () => Promise<Deno.FsFile>,
  turns = 0,
): DeferredJournalWriter {
  let begun = false;
  let opening: Promise<Deno.FsFile> | undefined;
  const writer = writerOn(() => {
    if (!begun) return Promise.resolve(undefined);
    return opening ??= open().catch((error) => {
      opening = undefined;
      throw error;
    });
  }, turns);
  return {
    ...writer,
    begin() {
      begun = true;
    },
    get begun() {
      return begun;
    },
  };
}

/** The writer, on the file `target` gives (undefined: not yet, keep the entries queued). */
function writerOn(
  target: () => Promise<Deno.FsFile | undefined>,
  turns: number,
): JournalWriter {
  let file: Deno.FsFile | undefined;
  let queued: string[] = [];
  // Flushes run one after another, each writing what was queued when it began.
  let previous: Promise<void> = Promise.resolve();
  const encoder = new TextEncoder();
  const write = async (to: Deno.FsFile, batch: string[]) => {
    const bytes = encoder.encode(batch.join(""));
    let written = 0;
    while (written < bytes.length) written += await to.write(bytes.subarray(written));
  };
  const writer: JournalWriter = {
    add(body, n) {
      // Only the person's messages are journaled one by one as user messages; a compaction's
      // summary and retained messages come inside checkpoints.
      if (body.type === "message" && body.message.role === "user") turns++;
      const stamp = { v: JOURNAL_VERSION, t: new Date().toISOString(), n, u: turns };
      queued.push(JSON.stringify({ ...stamp, ...body } as JournalEntry) + "\n");
    },
    flush() {
      const batch = queued;
      queued = [];
      const done = previous.catch(() => {}).then(async () => {
        file ??= await target();
        if (file === undefined) {
          queued = [...batch, ...queued]; // not written yet: kept, in order
          return;
        }
        if (batch.length) await write(file, batch);
      });
      previous = done.catch((error) => {
        queued = [...batch, ...queued]; // written by the next flush, in order
        throw error;
      });
      return previous;
    },
    async sync() {
      await writer.flush();
      await file?.syncData();
    },
    close() {
      try {
        file?.close();
      } catch { /* already closed */ }
    },
  };
  return writer;
}
