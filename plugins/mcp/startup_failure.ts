/**
 * The message of a server that did not start: what failed (its exit, a bad answer, the
 * deadline) and the end of its stderr as it was when the failure happened — before hel closed
 * its input or signalled it, since what a server writes then is what hel's shutdown caused
 * (npx's "npm error signal SIGTERM"), not why it failed.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { clipChars } from "../../core/mod.ts";
import { exitText } from "./startup_hints.ts";
import { stderrEnding } from "./stderr_lines.ts";

/** A server that could not be started; the message says why. */
export class StartupError extends Error {}

/** Server texts in messages are cut to this many characters. */
const MAX_QUOTED = 500;

/** What is known of the server when its start failed. */
export interface FailedStart {
  /** The step that failed: `initialize`, `tools/list`. */
  phase: string;
  /** How the process ended, if it has. */
  exit?: { code: number; signal: string | null };
  /** True when the server ended the connection itself, before hel shut it down. */
  endedByServer: boolean;
  /** Its stderr when the failure happened (the kept tail). */
  stderr: string;
}

/** `<why>; its stderr ends: <the lines that say what went wrong>`. */
export function startupFailureText(error: unknown, failed: FailedStart): string {
  const { phase, exit } = failed;
  const message = cut((error as Error)?.message ?? String(error));
  const issues = schemaIssues(error);
  let reason: string;
  // The SDK and hel close a server that answered badly, and it then exits (often with 0):
  // its exit explains the failure only when the server ended the connection itself.
  const version = message.match(/^Server's protocol version is not supported: (.*)$/)?.[1];
  if (error instanceof StartupError) reason = error.message;
  else if (version !== undefined) {
    // The SDK's wording names neither side's versions nor what to do.
    reason = `answered initialize with MCP protocol version ${version}, which hel does not ` +
      `speak (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); use a version of the ` +
      "server that supports one of these";
  } else if (failed.endedByServer && exit) {
    reason = `exited during ${phase} (${exitText(exit)})`;
  } else if (failed.endedByServer) {
    reason = `closed the connection during ${phase}`;
  } else if (error instanceof McpError) reason = `answered ${phase} with ${message}`;
  else if (issues) {
    reason = `answered ${phase} with a result MCP does not allow (${issues})`;
  } else reason = `failed during ${phase}: ${message}`;
  const lines = stderrEnding(failed.stderr);
  return lines.length > 0 ? `${reason}; its stderr ends: ${lines.join(" | ")}` : reason;
}

/**
 * The SDK rejects a malformed result with a validation error whose message is a multi-line
 * JSON dump; say instead which fields are wrong, on one line. Undefined for other errors.
 */
function schemaIssues(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown })?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const shown = issues.slice(0, 3).map((issue) => {
    const path = Array.isArray(issue?.path) && issue.path.length > 0 ? issue.path.join(".") : "";
    const text = String(issue?.message ?? "invalid");
    return path === "" ? text : `${path}: ${text}`;
  });
  if (issues.length > 3) shown.push(`${issues.length - 3} more`);
  return cut(shown.join("; "));
}

function cut(text: string): string {
  return clipChars(text, MAX_QUOTED);
}
