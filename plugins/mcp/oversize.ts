/**
 * What a message over a server's `maxMessageBytes` costs: the reader skipped it (line_reader.ts),
 * and here it becomes error answers for the requests it may have answered — the one its id
 * names, or, when no id of a waiting request can be read from its ends, every request waiting
 * at that moment — so those calls fail at once with a text that names the server, the size and
 * the setting, and the server stays connected for the next call.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { sizeText } from "./byte_sizes.ts";
import { limitText, skippedKind, type SkippedMessage } from "./message_size.ts";

/** The JSON-RPC error code of these answers (an internal error, as the SDK's own). */
export const OVERSIZE_CODE = -32603;

/** What the skipped message turns into. */
export interface OversizeOutcome {
  /** For the protocol trace. */
  error: Error;
  /** Error answers for the requests that fail (none for a server's own request). */
  answers: JSONRPCMessage[];
}

/**
 * See the module comment; `pending` maps hel's unanswered request ids to their methods. While
 * the message is still being skipped (`ended` false, only its head known) a request is failed
 * only when the head names it: a server that never ends the line must not hold that call to its
 * timeout. Undefined when there is nothing to do yet.
 */
export function oversizeAnswers(
  skipped: SkippedMessage,
  pending: ReadonlyMap<string | number, string>,
  server: { name: string; maxMessageBytes: number },
  ended: boolean,
): OversizeOutcome | undefined {
  const limit = limitText(server.maxMessageBytes);
  const kind = skippedKind(skipped);
  const named = kind.kind === "answer" && pending.has(kind.id);
  if (!ended && !named) return undefined;
  const what = ended
    ? `${sizeText(skipped.size)}, more than the ${limit}`
    : `a message over the ${limit}`;
  const error = new Error(
    `skipped ${ended ? `a message of ${skipped.size} bytes` : "a message"}, over ` +
      `maxMessageBytes (${server.maxMessageBytes})`,
  );
  if (kind.kind === "request-or-notification") return { error, answers: [] };
  const failed = named ? [kind.id] : [...pending.keys()];
  const answers = failed.map((id): JSONRPCMessage => ({
    jsonrpc: "2.0",
    id,
    error: {
      code: OVERSIZE_CODE,
      message: `MCP server ${server.name} answered ${pending.get(id)} with ${what} hel reads ` +
        'from it ("maxMessageBytes" in its mcp.json entry), so hel ' +
        "skipped the answer and this request failed; the server stays connected. Ask for less " +
        "(a narrower query, a smaller range or page), or continue without this result; the " +
        "user can raise maxMessageBytes.",
      data: { oversize: { bytes: skipped.size, limit: server.maxMessageBytes } },
    },
  }));
  return { error, answers };
}
