/**
 * A remote server that forgot hel's session (it restarted, or expired the session) answers 404
 * to the POST of a call. It ran nothing, so unlike a call whose connection died any other way
 * the call is safe to send again: the connection is renewed (a new `initialize` and listing,
 * through the restart path and its policy, restarts.ts) and the call sent once more in the new
 * session. A 404 to that second sending fails the call.
 *
 * @module
 */
import type { ToolResult } from "../../core/mod.ts";

/** The model's text for a call the server refused because it forgot the session. */
export const SESSION_LOST_TEXT =
  "the server no longer knows hel's session (HTTP 404: it restarted or ended the session), so " +
  "it did not run this request; the next call to one of its tools starts a new session: make " +
  "the call again";

/** A request the server refused with 404 because it no longer knows the session. */
export class SessionLost extends Error {
  constructor() {
    super(SESSION_LOST_TEXT);
    this.name = "SessionLost";
  }
}

/** Renewing the session failed: `result` is what the call answers (restart failed, given up). */
export class RenewalFailed extends Error {
  readonly result: ToolResult;
  constructor(result: ToolResult) {
    super(result.text);
    this.result = result;
    this.name = "RenewalFailed";
  }
}

/**
 * `send`, which after a {@link SessionLost} is sent once more once `renew` set up a new
 * session; `renew` returns the call's failure when it could not (thrown as
 * {@link RenewalFailed}). At most one renewal per call, however often the result is called.
 */
export function resendingOnLostSession<T>(
  send: () => Promise<T>,
  renew: () => Promise<ToolResult | undefined>,
): () => Promise<T> {
  let renewed = false;
  return async () => {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof SessionLost) || renewed) throw error;
      renewed = true;
      const failed = await renew();
      if (failed) throw new RenewalFailed(failed);
      return await send();
    }
  };
}
