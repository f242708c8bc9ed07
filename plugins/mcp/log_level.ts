/**
 * MCP log levels (the syslog severities the spec uses) and a server entry's `logLevel`: the
 * least severe level hel asks the server to send (`logging/setLevel`), `warning` unless the
 * entry says otherwise.
 *
 * @module
 */
import type { Node } from "jsonc-parser";
import { didYouMean } from "../../kit/mod.ts";

/** The levels, least severe first (RFC 5424 order, as the MCP spec lists them). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One MCP log level. */
export type LogLevel = typeof LOG_LEVELS[number];

/** What hel asks for when an entry gives no `logLevel`. */
export const DEFAULT_LOG_LEVEL: LogLevel = "warning";

/** The least severe level shown on stderr (in the chat, as a notice): errors and worse. */
export const SHOWN_LOG_LEVEL: LogLevel = "error";

/** The level's rank, 0 for debug to 7 for emergency; -1 for text that is not a level. */
export function logRank(level: unknown): number {
  return LOG_LEVELS.indexOf(level as LogLevel);
}

/**
 * Reads the `logLevel` field of a server entry (`here` names it in messages); undefined
 * after reporting a value that is not a level.
 */
export function readLogLevel(
  here: string,
  value: Node,
  report: (node: Node, message: string) => void,
): LogLevel | undefined {
  const given = value.type === "string" ? String(value.value) : undefined;
  if (given !== undefined && logRank(given) >= 0) return given as LogLevel;
  report(
    value,
    `${here} must be one of ${LOG_LEVELS.map((level) => `"${level}"`).join(", ")}` +
      `${given === undefined ? "" : suggestion(given)}; leave it out for "${DEFAULT_LOG_LEVEL}"`,
  );
  return undefined;
}

/** ` (did you mean "warning"?)` for "warn", "err", "Info" or a near typo; else "". */
function suggestion(given: string): string {
  const lower = given.toLowerCase();
  const start = lower.length >= 3 ? LOG_LEVELS.find((level) => level.startsWith(lower)) : undefined;
  return start ? ` (did you mean "${start}"?)` : didYouMean(given, LOG_LEVELS);
}
