/**
 * Turning a `tools/call` result into what the model reads: each content block in order
 * (content_blocks.ts: text, markers for images and audio with the data beside them as media,
 * embedded resources with their text, resource links with their URI), the structured result
 * when no block has text (base64 that repeats a block's data replaced by a note), `isError` as a
 * failed call. Every empty result reads {@link EMPTY_RESULT}; a result that breaks the
 * protocol's shape, or whose structured result does not fit the tool's `outputSchema`, is a
 * failed call naming the server's mistake. Large texts are spilled by the core.
 *
 * @module
 */
import { isRecord, type ToolMedia, type ToolResult } from "../../core/mod.ts";
import { convertBlock, MalformedBlock } from "./content_blocks.ts";
import { type IndexedBinary, withoutRepeatedData } from "./structured.ts";

/** The text for a result with nothing in it. */
export const EMPTY_RESULT = "(empty result)";

/** Checks a structured result against the tool's `outputSchema`: its problems, or none. */
export type OutputCheck = (structured: unknown) => Promise<string[] | undefined>;

/** Turns a raw `tools/call` result into a tool result. Never rejects. */
export type ResultConverter = (result: unknown) => Promise<ToolResult>;

/** Whose result it is, and what its tool promised. */
export interface ResultSource {
  server: string;
  /** The server's name for the tool. */
  tool: string;
  /** From the tool's `outputSchema`; absent when it declared none. */
  checkOutput?: OutputCheck;
}

/** Converts the raw result object of `tools/call`. Never throws. */
export async function convertCallResult(
  result: unknown,
  source: ResultSource,
): Promise<ToolResult> {
  const record = isRecord(result) ? result : {};
  const failed = record.isError === true;
  const mistake = (problem: string): ToolResult => ({
    ok: false,
    text: `MCP server ${source.server} answered ${source.tool} with a result the protocol does ` +
      `not allow: ${problem}. This is the server's mistake, not your call's; retrying the same ` +
      "call will not help. Continue without this result, or tell the user the tool is broken.",
  });
  const content = record.content ?? [];
  if (!Array.isArray(content)) {
    return mistake(`its "content" is ${JSON.stringify(content)?.slice(0, 60)}, not a list`);
  }
  const structured = record.structuredContent;
  if (structured !== undefined && structured !== null && !isRecord(structured)) {
    return mistake(`its "structuredContent" is not an object`);
  }
  const parts: string[] = [];
  const media: ToolMedia[] = [];
  const binaries: IndexedBinary[] = [];
  let sawText = false;
  try {
    for (const [index, block] of content.entries()) {
      const converted = convertBlock(block, index);
      if (converted.kind === "empty") continue;
      parts.push(converted.text);
      if (converted.media) media.push(converted.media);
      if (converted.binary) binaries.push({ ...converted.binary, index });
      if (converted.textual) sawText = true;
    }
  } catch (error) {
    if (error instanceof MalformedBlock) return mistake(error.message);
    throw error;
  }
  if (!failed && source.checkOutput) {
    if (!isRecord(structured)) {
      return mistake(
        'the tool declares an outputSchema but the result has no "structuredContent"',
      );
    }
    const problems = await source.checkOutput(structured);
    if (problems) {
      return mistake(
        `its structuredContent does not match the tool's outputSchema (${problems.join("; ")})`,
      );
    }
  }
  if (!sawText && isRecord(structured)) parts.push(withoutRepeatedData(structured, binaries));
  if (parts.length === 0) {
    return {
      ok: !failed,
      text: failed ? "the tool reported an error without saying what went wrong" : EMPTY_RESULT,
    };
  }
  return { ok: !failed, text: parts.join("\n"), ...(media.length > 0 ? { media } : {}) };
}
