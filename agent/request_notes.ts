/**
 * Plugins' notes for the model (core/plugin_hooks.ts `requestNote`: an MCP server changed its
 * tools) put into the conversation before a request, as one user message. At the start of a
 * turn it goes before the person's message, which stays last: that is what the model answers,
 * and the note is context for it. Later in a turn it follows the tool results.
 *
 * @module
 */
import type { ChatMessage } from "../core/types.ts";

/** Inserts `notes` (each already the plugin's whole text) into `messages`; none adds nothing. */
export function addRequestNotes(messages: ChatMessage[], notes: readonly string[]): void {
  if (notes.length === 0) return;
  const note: ChatMessage = { role: "user", content: notes.join("\n\n") };
  if (messages.at(-1)?.role === "user") messages.splice(messages.length - 1, 0, note);
  else messages.push(note);
}
