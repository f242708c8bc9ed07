/**
 * When a server that went away during a run is started again: by the next call to one of its
 * tools, resource read or prompt (never by a timer, and a call in flight when it died is never sent again — it may have
 * had effects), at most {@link MAX_RESTARTS} times a run, each after a back-off that grows, so a
 * server that crashes at every call costs a few seconds and is then given up with a message
 * saying so. A remote server whose connection dropped is reconnected the same way; one that
 * refused a call because it forgot the session is reconnected by that call, which it never ran,
 * and the call sent again (lost_session.ts): that counts as a restart too.
 *
 * @module
 */
import { exitText } from "./startup_hints.ts";

/** Restarts a run allows one server; the next loss after the last gives it up. */
export const MAX_RESTARTS = 3;
/**
 * The least time from losing the server to each restart (the 1st, 2nd, 3rd): a server that
 * crashes on start is not started again in a tight loop. Time the model took meanwhile counts.
 */
export const RESTART_BACKOFF_MS = [100, 500, 2_500] as const;

/** How the server was lost, in words: `it exited with code 3`, `the connection closed`. */
export function lossText(exit: { code: number; signal: string | null } | undefined): string {
  return exit ? exitText(exit) : "its connection closed";
}

/** What the next call to a lost server does. */
export type RestartPlan = { restart: true; waitMs: number; attempt: number } | { restart: false };

/** One server's restarts during a run. */
export class RestartPolicy {
  #restarts = 0;
  #lostAt: number | undefined;
  #gaveUp = false;

  /** Restarts made (or tried) so far. */
  get restarts(): number {
    return this.#restarts;
  }

  /** True once the server was given up. */
  get gaveUp(): boolean {
    return this.#gaveUp;
  }

  /** The server went away (noted once per loss; the back-off counts from here). */
  lost(now = Date.now()): void {
    this.#lostAt ??= now;
  }

  /** Whether to restart now, and after how long; the attempt is counted. */
  next(now = Date.now()): RestartPlan {
    if (this.#gaveUp || this.#restarts >= MAX_RESTARTS) {
      this.#gaveUp = true;
      return { restart: false };
    }
    const backoff = RESTART_BACKOFF_MS[this.#restarts]!;
    this.#restarts++;
    const waitMs = Math.max(0, (this.#lostAt ?? now) + backoff - now);
    this.#lostAt = undefined;
    return { restart: true, waitMs, attempt: this.#restarts };
  }
}

/** The model's text for a call that was running when its server went away. */
export function lostDuringCallText(server: string, loss: string): string {
  return `MCP server ${server} went away while this call was running (${loss}), so the call ` +
    "failed; hel does not send it again, as it may have had effects. Check whether it did " +
    "before repeating it: the next call to one of the server's tools starts the server again.";
}

/** The model's text once a server is given up. */
export function gaveUpText(server: string, loss: string): string {
  return `MCP server ${server} went away again (${loss}) after hel restarted it ` +
    `${MAX_RESTARTS} times in this run, so hel gave up on it: its tools cannot be used for the ` +
    "rest of this run. Continue without them, or tell the user the server keeps crashing.";
}

/** The model's text when starting the server again failed. */
export function restartFailedText(server: string, reason: string, left: number): string {
  return `MCP server ${server} had gone away and starting it again failed: ${reason}. ` +
    (left > 0
      ? `The next call to one of its tools tries again (${left} more time${left === 1 ? "" : "s"}).`
      : "hel gives up on it for the rest of this run; continue without its tools or tell the user.");
}

/**
 * The note the model gets with its next request after a restart (once per restart); `resent`
 * when the call that found the server gone was sent again (it had not run: lost_session.ts).
 */
export function restartNote(server: string, loss: string, attempt: number, resent = false): string {
  return `MCP server ${server} was restarted (${loss}; restart ${attempt} of at most ` +
    `${MAX_RESTARTS} in this run). Its tools were listed again; loaded tools that still exist ` +
    "stay loaded. " +
    (resent
      ? "The call it had refused was sent again once it was back."
      : "A call that was running when it went away was not repeated.");
}
