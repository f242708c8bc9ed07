/**
 * `hel sessions show <id>` prints a session's conversation (as text, or as JSON with `--json`)
 * and `hel sessions export <id> --format markdown` writes it as a readable transcript. Both
 * read the journal (or an older hel's snapshot) as a resume would, without changing it, and
 * need neither an API key nor the session's lock.
 *
 * @module
 */
import { findSession } from "../agent/session/catalog.ts";
import { loadSessionState } from "../agent/session/load.ts";
import type { SessionState } from "../agent/session/replay.ts";
import { SnapshotError } from "../agent/session/snapshot.ts";
import type { ChatMessage } from "../core/types.ts";
import { UsageError } from "../core/usage_error.ts";

/** The session `given` names (its id or the start of it): its whole id and its state. */
async function load(project: string, given: string): Promise<SessionState & { id: string }> {
  const { id, dir } = await findSession(project, given);
  try {
    return { ...(await loadSessionState(dir, id, project)).state, id };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`session ${id} has no saved conversation`);
    }
    if (error instanceof SnapshotError) {
      const file = (error as SnapshotError & { file?: string }).file;
      throw new UsageError(`session ${id} cannot be read: ${dir}/${file}: ${error.message}`);
    }
    throw error;
  }
}

/** The calls of an assistant message, one `name(arguments)` each. */
function calls(message: ChatMessage): string[] {
  if (message.role !== "assistant") return [];
  return (message.tool_calls ?? []).map((call) =>
    `${call.function.name}(${call.function.arguments})`
  );
}

/** The first `max` lines of a tool result, and how many more there are. */
function firstLines(text: string, max: number): string {
  const lines = text.split("\n");
  if (lines.length <= max) return text;
  return `${lines.slice(0, max).join("\n")}\n… (${lines.length - max} more lines)`;
}

/**
 * The conversation as text: one block per message, headed by its role. With `toolLines`
 * (the chat's `/resume`), each tool result shows only its first lines.
 */
export function conversationText(
  id: string,
  state: { createdAt: string; messages: readonly ChatMessage[] },
  toolLines?: number,
): string {
  const blocks = state.messages.map((message) => {
    const head = message.role === "tool" ? `[tool ${message.tool_call_id}]` : `[${message.role}]`;
    const content = message.role === "tool" && toolLines !== undefined
      ? firstLines(message.content, toolLines)
      : message.content ?? "";
    const body = [content, ...calls(message).map((call) => `→ ${call}`)]
      .filter((line) => line !== "").join("\n");
    return `${head}\n${body}`;
  });
  return [`session ${id} (created ${state.createdAt})`, ...blocks].join("\n\n") + "\n";
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenced(text: string, info = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

/** The conversation as a Markdown transcript. */
export function conversationMarkdown(id: string, state: SessionState): string {
  const parts = [`# Session ${id}`, `Created ${state.createdAt}.`];
  for (const message of state.messages) {
    if (message.role === "user") parts.push("## User", message.content);
    else if (message.role === "assistant") {
      parts.push("## Assistant");
      if (message.content) parts.push(message.content);
      for (const call of calls(message)) parts.push(fenced(call, "text"));
    } else if (message.role === "tool") {
      parts.push(`### Result of ${message.tool_call_id}`, fenced(message.content, "text"));
    }
  }
  return parts.join("\n\n") + "\n";
}

/** `hel sessions show`. */
export async function sessionsShow(
  project: string,
  given: string,
  options: { json?: boolean },
): Promise<string> {
  const state = await load(project, given);
  if (!options.json) return conversationText(state.id, state);
  const value = { session_id: state.id, created_at: state.createdAt, messages: state.messages };
  return JSON.stringify(value, null, 2) + "\n";
}

/** `hel sessions export`. */
export async function sessionsExport(
  project: string,
  given: string,
  options: { format?: string },
): Promise<string> {
  if ((options.format ?? "markdown") !== "markdown") {
    throw new UsageError(`--format ${options.format}: the only format is markdown`);
  }
  const state = await load(project, given);
  return conversationMarkdown(state.id, state);
}
