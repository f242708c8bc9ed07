/**
 * The idle timers of one server's calls in flight. A call's `timeout` counts the time the
 * server is silent (each progress report restarts it), but not the time the person spends
 * answering that server's question (elicitation): while a question is open the timers are
 * held and then go on with the time they had left, as Codex does, so a slow answer does not
 * cancel the call it was asked for. The call's hard maximum is not held.
 *
 * @module
 */

/** One call's idle timer. */
export interface CallTimer {
  /** A progress report: the full timeout again. */
  restart(): void;
  /** The call ended (answered, failed or cancelled). */
  end(): void;
}

/** Held timers, while the person answers a question; `release` once it is answered. */
export interface Hold {
  /**
   * Aborts once every call that was in flight when the hold began has ended (cancelled,
   * timed out at its maximum, answered): the question then no longer belongs to any call.
   */
  signal: AbortSignal;
  release(): void;
}

class Timer implements CallTimer {
  readonly #ms: number;
  readonly #onIdle: () => void;
  #left: number;
  #startedAt = 0;
  #handle: ReturnType<typeof setTimeout> | undefined;
  #ended = false;
  readonly ended = Promise.withResolvers<void>();

  constructor(ms: number, onIdle: () => void, held: boolean) {
    this.#ms = ms;
    this.#left = ms;
    this.#onIdle = onIdle;
    if (!held) this.resume();
  }

  resume(): void {
    if (this.#ended || this.#handle !== undefined) return;
    this.#startedAt = Date.now();
    this.#handle = setTimeout(() => {
      this.#handle = undefined;
      this.#onIdle();
    }, Math.max(0, this.#left));
  }

  pause(): void {
    if (this.#handle === undefined) return;
    clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#left -= Date.now() - this.#startedAt;
  }

  restart(): void {
    this.#left = this.#ms;
    if (this.#handle === undefined) return;
    this.pause();
    this.#left = this.#ms;
    this.resume();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#handle);
    this.#handle = undefined;
    this.ended.resolve();
  }
}

/** The idle timers of one server's calls in flight; see the module comment. */
export class CallsInFlight {
  readonly #timers = new Set<Timer>();
  #holds = 0;

  /** Starts a call's idle timer: `onIdle` after `ms` of silence not counting held time. */
  begin(ms: number, onIdle: () => void): CallTimer {
    const timer = new Timer(ms, onIdle, this.#holds > 0);
    this.#timers.add(timer);
    void timer.ended.promise.then(() => this.#timers.delete(timer));
    return timer;
  }

  /** Holds every timer while a question is open; undefined when no call is in flight. */
  hold(): Hold | undefined {
    const calls = [...this.#timers];
    if (calls.length === 0) return undefined;
    if (this.#holds++ === 0) { for (const timer of this.#timers) timer.pause(); }
    const controller = new AbortController();
    void Promise.all(calls.map((timer) => timer.ended.promise)).then(() =>
      controller.abort(new Error("the call the question was asked for ended"))
    );
    let released = false;
    return {
      signal: controller.signal,
      release: () => {
        if (released) return;
        released = true;
        if (--this.#holds === 0) { for (const timer of this.#timers) timer.resume(); }
      },
    };
  }
}
