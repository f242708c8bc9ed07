/**
 * Appending to a session's journal. The file is opened once, link-safely, and kept open while
 * the session is held, so an append costs one write whatever the journal's length. Entries are
 * queued by {@link JournalWriter.add} (callable from synchronous event sinks) and written, in
 * order, by {@link JournalWriter.flush}: the run flushes before every model request and after
 * every tool result, so a crash loses at most what was in flight.
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

/**
 * Opens (creating it when missing) the journal of `sessionDir` for appending. `sound` is the
 * length of its complete lines: a torn rest is cut off first, so the next entry starts a line.
 */
export async function openJournalWriter(
  sessionDir: string,
  sound?: number,
): Promise<JournalWriter> {
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
  let queued: string[] = [];
  // Flushes run one after another, each writing what was queued when it began.
  let previous: Promise<void> = Promise.resolve();
  const encoder = new TextEncoder();
  const write = async (batch: string[]) => {
    const bytes = encoder.encode(batch.join(""));
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
  };
  const writer: JournalWriter = {
    add(body, n) {
      const entry = { v: JOURNAL_VERSION, t: new Date().toISOString(), n, ...body } as JournalEntry;
      queued.push(JSON.stringify(entry) + "\n");
    },
    flush() {
      const batch = queued;
      queued = [];
      const done = previous.catch(() => {}).then(() => batch.length ? write(batch) : undefined);
      previous = done.catch((error) => {
        queued = [...batch, ...queued]; // written by the next flush, in order
        throw error;
      });
      return previous;
    },
    async sync() {
      await writer.flush();
      await file.syncData();
    },
    close() {
      try {
        file.close();
      } catch { /* already closed */ }
    },
  };
  return writer;
}
