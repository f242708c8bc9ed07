/**
 * A `tools/call` that failed with an error a client feature can deal with, then sent once more:
 * a server answering -32042 (URL elicitation required, elicitation_required.ts) needs the
 * person to open a page before the call can succeed. The feature asks the person; when it is
 * done the call is sent again — once, so a server that keeps asking cannot loop — and when it
 * is not, the call fails with the feature's text for the model.
 *
 * @module
 */

/** What a feature made of a failed call: send it again, or the text the model gets instead. */
export type CallRecovery = { retry: true } | { retry: false; text: string };

/** The call that failed, as a feature sees it. */
export interface FailedCall {
  /** The server's name for the tool. */
  tool: string;
  /** Aborts when the call ends (interrupted, at its maximum): the person is no longer asked. */
  signal: AbortSignal;
  /** The call was already sent again once; it is not sent a third time. */
  retried: boolean;
}

/** What an installed feature offers the calls of its server. */
export interface CallRecoverer {
  /** Undefined when `error` is none of the feature's business. */
  callFailed?(error: unknown, call: FailedCall): Promise<CallRecovery | undefined>;
}

/** A call a feature could not recover: `text` is what the model reads. */
export class CallRefused extends Error {
  readonly text: string;
  constructor(text: string) {
    super(text);
    this.text = text;
    this.name = "CallRefused";
  }
}

/**
 * `send()`'s answer; when it fails, the first feature that takes the error on decides: sent
 * again (after `onRetry`, at most once), or a {@link CallRefused}. An error no feature takes,
 * or any error once `call.signal` aborted, is thrown as it is, so the caller reports an
 * interrupted or timed-out call as such.
 */
export async function sendRecovering<T>(
  send: () => Promise<T>,
  recoverers: readonly CallRecoverer[],
  call: { tool: string; signal: AbortSignal },
  onRetry: () => void,
): Promise<T> {
  for (let retried = false;; retried = true) {
    try {
      return await send();
    } catch (error) {
      if (call.signal.aborted) throw error;
      let recovery: CallRecovery | undefined;
      for (const recoverer of recoverers) {
        recovery = await recoverer.callFailed?.(error, { ...call, retried });
        if (recovery) break;
      }
      if (call.signal.aborted) throw call.signal.reason;
      if (!recovery) throw error;
      if (!recovery.retry) throw new CallRefused(recovery.text);
      if (retried) throw error; // never a third time, whatever a feature says
      onRetry();
    }
  }
}
