/**
 * Turning a `tools/call` result into the text the model reads: text blocks joined by newlines,
 * a short marker for every other block, the structured result when there is no text, and
 * `isError` as a failed call. Large texts are spilled by the core like any other result.
 *
 * @module
 */
import type { ToolResult } from "../../core/mod.ts";

/** The text for a result with nothing in it. */
export const EMPTY_RESULT = "(empty result)";

/** Converts the raw result object of `tools/call`. Never throws. */
export function convertCallResult(result: unknown): ToolResult {
  const record = isRecord(result) ? result : {};
  const blocks = Array.isArray(record.content) ? record.content : [];
  let parts: string[] = [];
  let sawText = false;
  for (const block of blocks) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") {
      sawText = true;
      parts.push(block.text);
    } else {
      parts.push(`[${blockType(block)} content omitted]`);
    }
  }
  const structured = record.structuredContent;
  if (!sawText && structured !== undefined && structured !== null) {
    parts = [JSON.stringify(structured)];
  }
  const text = parts.length > 0 ? parts.join("\n") : EMPTY_RESULT;
  return { ok: record.isError !== true, text };
}

function blockType(block: unknown): string {
  if (!isRecord(block) || typeof block.type !== "string" || block.type === "") return "unknown";
  // The type is server text shown to the model; keep it to a plain word.
  const word = block.type.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40);
  return word === "" ? "unknown" : word;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
