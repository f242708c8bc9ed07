/**
 * What a failed `tools/call` tells the model, and how its trace entry names it: past its
 * maximum despite progress, interrupted by the person, timed out, an answer over the server's
 * `maxMessageBytes` (oversize.ts), refused by hel, or the server's own error.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { clipChars } from "../../core/mod.ts";
import { pastMaximumText, seconds } from "./call_texts.ts";
import { CallRefused } from "./call_recovery.ts";
import { OVERSIZE_CODE } from "./oversize.ts";

/** Server texts quoted in the model's text are cut to this many characters. */
const MAX_QUOTED = 500;

/** How the call went, as the connection saw it. */
export interface CallState {
  server: string;
  tool: string;
  callTimeoutMs: number;
  maximumMs: number;
  /** hel's hard maximum fired. */
  pastMaximum: boolean;
  /** hel's idle timer fired. */
  idle: boolean;
  /** The call's controller was aborted (by the person, or by one of hel's timers). */
  aborted: boolean;
  /** Progress reports received. */
  reports: number;
}

/** The trace status (with extra fields) and the model's text. */
export interface CallFailure {
  status: string;
  extra?: Record<string, unknown>;
  text: string;
}

/** See the module comment; the server is still connected. */
export function callFailure(error: unknown, call: CallState): CallFailure {
  const { server } = call;
  if (call.pastMaximum && call.reports > 0) {
    return {
      status: "maximum",
      text: pastMaximumText(server, call.callTimeoutMs, call.maximumMs, call.reports),
    };
  }
  if (call.aborted && !call.pastMaximum && !call.idle) {
    return {
      status: "cancelled",
      text: `interrupted by the user; the ${call.tool} request to MCP server ${server} was ` +
        "cancelled",
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    const waited = seconds(call.callTimeoutMs);
    // A call that reported progress and then fell silent is told apart; one that never
    // reported any reads exactly as before progress counted.
    const what = call.reports === 0
      ? `timed out after ${waited}`
      : `timed out: no answer or progress for ${waited} after ${call.reports} progress ` +
        `report${call.reports === 1 ? "" : "s"}`;
    return {
      status: "timeout",
      text: `MCP request tools/call to ${server} ${what}; ` +
        "the request was cancelled and the server keeps running. Try again only if the " +
        "task needs it, perhaps with a smaller request, or continue without this result.",
    };
  }
  const bytes = oversizedBytes(error);
  if (bytes !== undefined) {
    // hel's own text (oversize.ts), without the SDK's "MCP error <code>: " before it.
    const text = (error as McpError).message.replace(/^MCP error -?\d+: /, "");
    return { status: "oversize", extra: { bytes }, text };
  }
  if (error instanceof CallRefused) return { status: "refused-by-client", text: error.text };
  const message = clipChars((error as Error)?.message ?? String(error), MAX_QUOTED);
  return {
    status: "error",
    extra: { message },
    // McpError messages already read "MCP error <code>: <message>".
    text: error instanceof McpError ? message : `MCP request to ${server} failed: ${message}`,
  };
}

/** The size of an answer the transport skipped for being over the bound (oversize.ts). */
function oversizedBytes(error: unknown): number | undefined {
  if (!(error instanceof McpError) || error.code !== OVERSIZE_CODE) return undefined;
  const data = error.data as { oversize?: { bytes?: unknown } } | undefined;
  const bytes = data?.oversize?.bytes;
  return typeof bytes === "number" ? bytes : undefined;
}
