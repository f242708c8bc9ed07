/**
 * Starting a lost server again when the next call to it comes (the policy is restarts.ts): the
 * loss put in words, the rest of the old server shut down during the back-off, a fresh start
 * and listing, and the model's note; or the call's failure when the server is given up, the
 * start fails or hel is shutting down.
 *
 * @module
 */
import { clipChars, type ToolResult } from "../../core/mod.ts";
import { settleWithin } from "../../kit/mod.ts";
import type { ToolListing } from "./listing_budget.ts";
import type { ServerTransport } from "./server_transport.ts";
import {
  gaveUpText,
  lossText,
  MAX_RESTARTS,
  restartFailedText,
  restartNote,
  type RestartPolicy,
} from "./restarts.ts";

/** Server texts in traces and messages are cut to this many characters. */
const MAX_QUOTED = 500;

/** Why the server behind `transport` went away, in words, once that is known. */
export async function lossOf(transport: ServerTransport): Promise<string> {
  const dropped = transport.dropped;
  // A server hel dropped is still running; only a server that went away has an exit to wait for.
  if (dropped) return dropped;
  // Stdout usually closes a moment before the exit status is known; wait briefly for it.
  await settleWithin([transport.exited], 500);
  return lossText(transport.exit);
}

/** What {@link revive} needs of the connection it starts again. */
export interface Revivable {
  readonly name: string;
  readonly restarts: RestartPolicy;
  /** True once hel is shutting the server down. */
  closing(): boolean;
  /** The server's pid once started again. */
  pid(): number | undefined;
  /** Why the server went away ({@link lossOf} its transport). */
  loss(): Promise<string>;
  /** Shuts down what is left of the lost server and sets up a new transport, within `waitMs`. */
  replaceTransport(waitMs: number): Promise<void>;
  /** Spawns, initializes and lists under the startup time; throws a StartupError on failure. */
  start(): Promise<ToolListing>;
  close(): Promise<unknown>;
  trace(data: Record<string, unknown>): void;
  /** Told of each restart: what the server lists now and the model's note. */
  onRestarted?: (server: string, listing: ToolListing, note: string) => void;
}

/**
 * A call to a server that went away: starts it again and returns nothing, or returns the
 * call's failure (given up, the restart failed, hel is shutting down). `resending` when the
 * call is then sent again (a remote server forgot the session: lost_session.ts).
 */
export async function revive(
  server: Revivable,
  resending = false,
): Promise<ToolResult | undefined> {
  const { name, trace } = server;
  const shuttingDown = { ok: false, text: `MCP server ${name} is shutting down` };
  if (server.closing()) return shuttingDown;
  const loss = await server.loss();
  const wasGivenUp = server.restarts.gaveUp;
  const plan = server.restarts.next();
  if (!plan.restart) {
    if (!wasGivenUp) trace({ event: "gave_up", server: name, restarts: MAX_RESTARTS, loss });
    return { ok: false, text: gaveUpText(name, loss) };
  }
  await server.replaceTransport(plan.waitMs);
  try {
    const listing = await server.start();
    if (server.closing()) {
      await server.close();
      return shuttingDown;
    }
    trace({
      event: "restarted",
      server: name,
      restart: plan.attempt,
      loss,
      pid: server.pid(),
      tools: listing.tools.length,
    });
    server.onRestarted?.(name, listing, restartNote(name, loss, plan.attempt, resending));
    return undefined;
  } catch (error) {
    const reason = clipChars((error as Error)?.message ?? String(error), MAX_QUOTED);
    trace({ event: "restart_failed", server: name, restart: plan.attempt, reason });
    server.restarts.lost();
    const left = MAX_RESTARTS - plan.attempt;
    return { ok: false, text: restartFailedText(name, reason, left) };
  }
}
