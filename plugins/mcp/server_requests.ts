/**
 * Requests hel makes to a connected server besides `tools/call` — listing again after a list
 * change, resources, prompts, completions — through the server's SDK client, each bounded in
 * time and size, each answered as data (never a throw) with a text that says what went wrong.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  McpError,
  ResultSchema,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { clipChars } from "../../core/mod.ts";

/** Pages of one listing read at most; a server that keeps paginating is stopped there. */
export const MAX_LIST_PAGES = 100;
/** Items of one listing kept at most (a server may list a million resources). */
const MAX_LIST_ITEMS = 10_000;
/** Server texts quoted in messages are cut to this many characters. */
const MAX_QUOTED = 300;

/** One server as these requests see it. */
export interface ServerHandle {
  name: string;
  client: Client;
  /** False once the server exited or hel dropped it. */
  connected(): boolean;
  /**
   * Starts the lost server again (the restart policy's, as a tool call does: restarts.ts);
   * the request's failure when that did not work.
   */
  revive?(): Promise<{ text: string } | undefined>;
}

/**
 * A request's answer, or what went wrong in words for the model or the person; `error` is what
 * caused it when there was one (the request's rejection, a {@link ListingError}), for callers
 * that tell failures apart.
 */
export type Answer<T> = { ok: true; value: T } | { ok: false; text: string; error?: unknown };

/** What was wrong with a listing's answers, without the server's name (the caller's to add). */
export class ListingError extends Error {}

/** What the server declared in its `initialize` answer (empty before it answered). */
export function capabilitiesOf(server: ServerHandle): ServerCapabilities {
  return server.client.getServerCapabilities() ?? {};
}

/**
 * Sends `method` with `params` and returns the raw result object. `timeoutMs` bounds the wait;
 * an abort of `signal` cancels the request on the wire (`notifications/cancelled`); `revive`
 * starts a server that went away again first.
 */
export async function request(
  server: ServerHandle,
  method: string,
  params: Record<string, unknown>,
  options: { timeoutMs: number; signal?: AbortSignal; revive?: boolean },
): Promise<Answer<Record<string, unknown>>> {
  if (!server.connected()) {
    // A request the model or the person made (`revive`) starts a lost server again, as a tool
    // call does; a listing after a list change, or a completion while typing, does not.
    const failed = options.revive && server.revive ? await server.revive() : {
      text: `MCP server ${server.name} is disconnected; the next call to one of its tools ` +
        "starts it again",
    };
    if (failed) return { ok: false, text: failed.text };
  }
  try {
    const result = await server.client.request(
      { method, params },
      ResultSchema,
      { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
    );
    return { ok: true, value: result as Record<string, unknown> };
  } catch (error) {
    if (options.signal?.aborted) {
      return {
        ok: false,
        text: `interrupted: the ${method} request to ${server.name} was cancelled`,
      };
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return {
        ok: false,
        text: `MCP server ${server.name} did not answer ${method} within ${
          options.timeoutMs / 1000
        } s; the request was cancelled`,
        error,
      };
    }
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) {
      return { ok: false, text: `MCP server ${server.name} does not support ${method}`, error };
    }
    const message = quoted((error as Error)?.message ?? String(error));
    return {
      ok: false,
      text: `MCP server ${server.name} answered ${method} with an error: ${message}`,
      error,
    };
  }
}

/**
 * Where a listing's items go, one at a time as each page arrives, so that only the page being
 * read and what is kept are held.
 */
export interface ListKeeper<T> {
  /** Takes one item (or counts it as left out once full). */
  take(item: unknown): void;
  /** Counts characters held besides the items (the cursors seen); optional. */
  charge?(chars: number): void;
  /** Whether no further page should be asked for. */
  readonly full: boolean;
  /** What is kept; `morePages` says whether the server had pages not asked for. */
  finish(morePages: boolean): T;
}

/** Keeps the first {@link MAX_LIST_ITEMS} items. */
function firstItems(): ListKeeper<unknown[]> {
  const items: unknown[] = [];
  return {
    take: (item) => void (items.length < MAX_LIST_ITEMS && items.push(item)),
    get full() {
      return items.length >= MAX_LIST_ITEMS;
    },
    finish: () => items,
  };
}

/**
 * Every page of a listing (`tools/list` → `tools`), at most {@link MAX_LIST_PAGES} pages, all
 * within `timeoutMs`, kept by `keeper` (by default the first {@link MAX_LIST_ITEMS} items).
 * Entries are returned unchecked. An endless listing (a repeated cursor, too many pages) fails
 * with a {@link ListingError}, as does an answer without the list.
 */
export function listAll(
  server: ServerHandle,
  method: string,
  key: string,
  timeoutMs: number,
): Promise<Answer<unknown[]>>;
/** The same listing, kept (and returned) as `keeper` makes it. */
export function listAll<T>(
  server: ServerHandle,
  method: string,
  key: string,
  timeoutMs: number,
  keeper: ListKeeper<T>,
): Promise<Answer<T>>;
export async function listAll(
  server: ServerHandle,
  method: string,
  key: string,
  timeoutMs: number,
  keeper: ListKeeper<unknown> = firstItems(),
): Promise<Answer<unknown>> {
  const deadline = Date.now() + timeoutMs;
  const fault = (reason: string) => ({
    ok: false as const,
    text: `MCP server ${server.name} ${reason}`,
    error: new ListingError(reason),
  });
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const left = deadline - Date.now();
    if (left <= 0) return fault(`did not finish ${method} in time`);
    const answer = await request(server, method, cursor === undefined ? {} : { cursor }, {
      timeoutMs: left,
    });
    if (!answer.ok) return answer;
    const listed = answer.value[key];
    if (!Array.isArray(listed)) return fault(`answered ${method} without a "${key}" list`);
    // One at a time: spreading a page of some 150,000 tools overflows the stack. Only what is
    // kept outlives this page: the next one is asked for after it is dropped.
    for (const item of listed) keeper.take(item);
    const next = answer.value.nextCursor;
    if (typeof next !== "string" || keeper.full) {
      return { ok: true, value: keeper.finish(typeof next === "string") };
    }
    if (seen.has(next)) return fault(`repeated a ${method} cursor (endless listing)`);
    keeper.charge?.(next.length);
    if (keeper.full) return { ok: true, value: keeper.finish(true) };
    seen.add(next);
    cursor = next;
  }
  return fault(`listed more than ${MAX_LIST_PAGES} pages of ${key}`);
}

/** A server's text in one of hel's messages: cut to a bounded length. */
export function quoted(text: string): string {
  return clipChars(text, MAX_QUOTED);
}
