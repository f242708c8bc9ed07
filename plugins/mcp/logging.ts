/**
 * Server logging: once connected, hel asks a server that declares `logging` for messages of
 * its entry's `logLevel` and worse (`logging/setLevel`, default `warning`). Each message
 * (`notifications/message`) goes to the run's MCP trace (`--record`: raw/mcp.jsonl); errors and
 * worse are also shown to the person (stderr, or a notice line in the chat), on one line with
 * controls escaped. A server can send thousands a second, so both are rate-limited per server:
 * what is dropped is counted in the trace, and the person is told once a minute at most.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { clipChars, codePointLength } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";
import type { ClientFeature, FeatureServer } from "./client_features.ts";
import { DEFAULT_LOG_LEVEL, logRank, SHOWN_LOG_LEVEL } from "./log_level.ts";
import { WindowBudget } from "./rate_limit.ts";

/** Trace entries per server per window, and the window. */
export const TRACED_PER_WINDOW = 100;
const TRACE_WINDOW_MS = 10_000;
/** Lines shown to the person per server per minute. */
export const SHOWN_PER_MINUTE = 5;
/** A message's data is cut to this many characters in the trace, and a shown line to fewer. */
const TRACED_CHARS = 4_000;
const SHOWN_CHARS = 300;

/** What the logging feature needs from the run. */
export interface LoggingOptions {
  /** Shows a line to the person (a run warning: stderr, or a notice in the chat). */
  warn(text: string): void;
  /** The clock of the rate limits (tests). */
  now?: () => number;
}

/** The logging feature: the level asked for once connected, and every message received. */
export function loggingFeature(options: LoggingOptions): ClientFeature {
  return {
    name: "logging",
    install(client, server) {
      const log = new ServerLog(server, options);
      client.setNotificationHandler(
        LoggingMessageNotificationSchema,
        (notification) => log.receive(notification.params),
      );
    },
    async connected(client, server, timeoutMs) {
      // Without the capability the request is not the server's to answer (the spec); its
      // messages, if any, are still received.
      if (client.getServerCapabilities()?.logging === undefined) return;
      const level = server.config.logLevel ?? DEFAULT_LOG_LEVEL;
      const name = server.config.name;
      try {
        await client.setLoggingLevel(level, { timeout: timeoutMs });
        server.trace({ event: "log_level", server: name, level });
      } catch (error) {
        // A server that exited fails start-up as usual; one that refused the level still works.
        if (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed) throw error;
        server.trace({
          event: "log_level",
          server: name,
          level,
          refused: clipChars(error.message, 500),
        });
      }
    },
  };
}

/** One server's messages: filtered by its level, traced and shown within the limits. */
class ServerLog {
  #server: FeatureServer;
  #options: LoggingOptions;
  #minimum: number;
  #traced: WindowBudget;
  #shown: WindowBudget;

  constructor(server: FeatureServer, options: LoggingOptions) {
    this.#server = server;
    this.#options = options;
    this.#minimum = logRank(server.config.logLevel ?? DEFAULT_LOG_LEVEL);
    this.#traced = new WindowBudget(TRACED_PER_WINDOW, TRACE_WINDOW_MS, options.now);
    this.#shown = new WindowBudget(SHOWN_PER_MINUTE, 60_000, options.now);
  }

  receive(params: { level: string; logger?: string; data?: unknown }): void {
    const rank = logRank(params.level);
    // Below the level asked for: the server should not have sent it, and the person said they
    // do not want it.
    if (rank < this.#minimum) return;
    const name = this.#server.config.name;
    const data = dataText(params.data);
    const logger = typeof params.logger === "string" ? clipChars(params.logger, 100) : undefined;
    const traced = this.#traced.take();
    if (traced === "pass") {
      const dropped = this.#traced.takeDropped();
      this.#server.trace({
        event: "log",
        server: name,
        level: params.level,
        ...(logger !== undefined ? { logger } : {}),
        data: clipChars(data, TRACED_CHARS),
        ...(codePointLength(data) > TRACED_CHARS ? { truncated: true } : {}),
        ...(dropped > 0 ? { dropped } : {}),
      });
    } else if (traced === "first-drop") {
      this.#server.trace({
        event: "log_dropped",
        server: name,
        reason: `more than ${TRACED_PER_WINDOW} log messages in ${TRACE_WINDOW_MS / 1000} s; ` +
          "the rest of this window are counted in the next log entry's dropped",
      });
    }
    if (rank < logRank(SHOWN_LOG_LEVEL)) return;
    const shown = this.#shown.take();
    if (shown === "pass") {
      const from = logger !== undefined ? ` from ${oneLine(logger)}` : "";
      this.#options.warn(
        `MCP server ${name} logged ${params.level}${from}: ${
          oneLine(clipChars(data, SHOWN_CHARS))
        }`,
      );
    } else if (shown === "first-drop") {
      this.#options.warn(
        `MCP server ${name} logged more than ${SHOWN_PER_MINUTE} errors within a minute; hel ` +
          "shows no more of them this minute (the MCP trace keeps them: --record writes it " +
          "to raw/mcp.jsonl)",
      );
    }
  }
}

/** A message's data as text: a string as it is, anything else as JSON. */
function dataText(data: unknown): string {
  if (typeof data === "string") return data;
  return JSON.stringify(data) ?? String(data);
}

/** One line for the terminal: controls escaped, line breaks shown as ` | `. */
function oneLine(text: string): string {
  return escapeControlCharacters(text.replace(/\s*\r?\n\s*/g, " | "));
}
