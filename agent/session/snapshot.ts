/**
 * Session snapshots: the conversation of a session after its last completed turn, saved as
 * `.hel/sessions/<id>/snapshot.json`. The file is versioned, validated on save and on load,
 * and written atomically (temporary file, sync, rename) so a crash leaves either the old or
 * the new snapshot, never a mix.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import type { ChatMessage } from "../../core/types.ts";
import { writeFileAtomic } from "../../kit/safe_write.ts";
import { isRecord } from "../../core/is_record.ts";

/** The schema version this hel writes and reads. */
export const SNAPSHOT_SCHEMA_VERSION = 1;

/** What `snapshot.json` holds (schema version 1). */
export interface Snapshot {
  schema_version: 1;
  session_id: string;
  /** The canonical project directory the session belongs to. */
  project: string;
  /** ISO 8601 times. */
  created_at: string;
  updated_at: string;
  /** The whole conversation, system message included; ends with a completed answer. */
  messages: ChatMessage[];
  /** How many messages right after the compaction checkpoint are a plugin's retained region. */
  retained_messages: number;
  /** Each plugin's `saveState()` result, by plugin name. Nothing else of a plugin is kept. */
  plugins: Record<string, unknown>;
}

/** A snapshot that cannot be used; `message` says what is wrong with it. */
export class SnapshotError extends Error {
  override name = "SnapshotError";
  /** False when the file is sound but belongs elsewhere (a moved project). */
  readonly damaged: boolean;

  constructor(message: string, options: { damaged?: boolean } = {}) {
    super(message);
    this.damaged = options.damaged ?? true;
  }
}

/**
 * Checks that `messages` is a conversation a model API accepts and that ends with a
 * completed answer. Returns the first problem found, or undefined.
 */
export function conversationProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return "messages must be a list";
  const pending = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (!isRecord(message)) return `${at} is not an object`;
    const role = message.role;
    if (role === "system") {
      if (index !== 0) return `${at}: a system message may only come first`;
      if (typeof message.content !== "string") return `${at}.content must be text`;
      continue;
    }
    if (role === "tool") {
      if (typeof message.content !== "string") return `${at}.content must be text`;
      const id = message.tool_call_id;
      if (typeof id !== "string" || !pending.delete(id)) {
        return `${at}: a tool result has no matching call`;
      }
      continue;
    }
    if (role !== "user" && role !== "assistant") return `${at}: unknown role ${String(role)}`;
    if (pending.size > 0) return `${at}: the tool calls before it are missing results`;
    if (role === "user") {
      if (typeof message.content !== "string") return `${at}.content must be text`;
      continue;
    }
    if (message.content !== null && typeof message.content !== "string") {
      return `${at}.content must be text or null`;
    }
    const calls = message.tool_calls ?? [];
    if (!Array.isArray(calls)) return `${at}.tool_calls must be a list`;
    // Ids must be unique within one response only: every call is answered before the next
    // response, and some servers number their calls afresh each time (call_0, call_1, ...).
    const seen = new Set<string>();
    for (const call of calls) {
      const fn = isRecord(call) ? call.function : undefined;
      if (
        !isRecord(call) || typeof call.id !== "string" || !isRecord(fn) ||
        typeof fn.name !== "string" || typeof fn.arguments !== "string"
      ) {
        return `${at}: a tool call is malformed`;
      }
      if (seen.has(call.id)) return `${at}: tool call id ${call.id} is used twice in one response`;
      seen.add(call.id);
      pending.add(call.id);
    }
  }
  if (pending.size > 0) return "the last tool calls are missing results";
  const last = messages.at(-1);
  if (
    !isRecord(last) || last.role !== "assistant" || typeof last.content !== "string" ||
    (Array.isArray(last.tool_calls) && last.tool_calls.length > 0)
  ) {
    return "the conversation must end with a completed assistant answer";
  }
  return undefined;
}

/**
 * Validates a parsed snapshot for session `id` of `project`; throws {@link SnapshotError}
 * naming the field at fault.
 */
export function validateSnapshot(value: unknown, id: string, project: string): Snapshot {
  if (!isRecord(value)) throw new SnapshotError("the file is not a JSON object");
  if (value.schema_version !== SNAPSHOT_SCHEMA_VERSION) {
    throw new SnapshotError(
      `unsupported schema_version ${JSON.stringify(value.schema_version)} ` +
        `(this hel reads version ${SNAPSHOT_SCHEMA_VERSION})`,
    );
  }
  if (value.session_id !== id) {
    throw new SnapshotError(`session_id ${JSON.stringify(value.session_id)} is not ${id}`);
  }
  if (value.project !== project) throw otherProject(value.project, project);
  for (const field of ["created_at", "updated_at"]) {
    if (typeof value[field] !== "string") throw new SnapshotError(`${field} must be text`);
  }
  const problem = conversationProblem(value.messages);
  if (problem) throw new SnapshotError(problem);
  const retained = value.retained_messages;
  if (!Number.isInteger(retained) || (retained as number) < 0) {
    throw new SnapshotError("retained_messages must be a whole number");
  }
  // They follow the compaction checkpoint, all user messages; a larger count would make the
  // next compaction drop real conversation along with them.
  const messages = value.messages as ChatMessage[];
  const first = messages[0]?.role === "system" ? 1 : 0;
  const checkedUpTo = retained === 0 ? first - 1 : first + (retained as number);
  for (let index = first; index <= checkedUpTo; index++) {
    if (messages[index]?.role !== "user") {
      throw new SnapshotError(
        `retained_messages is ${retained}, but the messages after the checkpoint are not that many`,
      );
    }
  }
  if (!isRecord(value.plugins)) throw new SnapshotError("plugins must be an object");
  return value as unknown as Snapshot;
}

/**
 * A session made for another project. Most often the project folder was moved or renamed:
 * say where the session was made.
 */
export function otherProject(saved: unknown, project: string): SnapshotError {
  return new SnapshotError(
    `it was saved for the project at ${JSON.stringify(saved)}, not this one ` +
      `(${project}); sessions belong to the folder they were made in`,
    { damaged: false },
  );
}

/** The snapshot file of a session folder. */
export function snapshotPath(sessionDir: string): string {
  return `${sessionDir}/snapshot.json`;
}

/**
 * Reads and validates the snapshot of a session folder. Throws {@link SnapshotError} when it
 * is damaged and `Deno.errors.NotFound` when there is none; the file is never changed.
 */
export async function loadSnapshot(sessionDir: string, id: string, project: string) {
  // A FIFO or device in its place would block the read forever; only a plain file is read.
  const info = await Deno.lstat(snapshotPath(sessionDir));
  if (!info.isFile) throw new SnapshotError("snapshot.json is not a regular file");
  const text = await Deno.readTextFile(snapshotPath(sessionDir));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(`not valid JSON (${errorMessage(error)})`);
  }
  return validateSnapshot(value, id, project);
}

/**
 * Writes the snapshot atomically with mode 0600: a fresh temporary file in the same folder,
 * synced, then renamed over `snapshot.json`, then the folder synced. Throws on failure, also
 * when `snapshot.json` is a link (the caller warns and goes on); the previous snapshot then
 * stays as it was.
 */
export async function saveSnapshot(sessionDir: string, snapshot: Snapshot): Promise<void> {
  validateSnapshot(snapshot, snapshot.session_id, snapshot.project);
  const text = JSON.stringify(snapshot, null, 2) + "\n";
  // The session folder was checked to be a real folder when the session was opened.
  await writeFileAtomic(sessionDir, snapshotPath(sessionDir), text, { mode: 0o600 });
  await syncDirectory(sessionDir);
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable; not every platform can open a directory, which is fine.
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch { /* best effort */ }
}
