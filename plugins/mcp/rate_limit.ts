/**
 * Bounds on what a server can make hel record or show: a server may send thousands of log
 * messages or requests a second, and each would otherwise become a trace entry or a line on the
 * person's terminal.
 *
 * @module
 */

/** True for 1, 10, 100, ...: the counts worth a trace entry when each event is alike. */
export function powerOfTen(count: number): boolean {
  return /^10*$/.test(String(count));
}

/** What {@link WindowBudget.take} decided. */
export type BudgetDecision = "pass" | "first-drop" | "drop";

/**
 * At most `limit` events per window of `windowMs`: the rest of a window are dropped and
 * counted. A window starts at the first event after the previous one ended.
 */
export class WindowBudget {
  readonly limit: number;
  readonly windowMs: number;
  #now: () => number;
  #start = -Infinity;
  #used = 0;
  #dropped = 0;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#now = now;
  }

  /** Whether one more event may pass; the first refusal of a window is told apart. */
  take(): BudgetDecision {
    const now = this.#now();
    if (now - this.#start >= this.windowMs) {
      this.#start = now;
      this.#used = 0;
    }
    if (this.#used < this.limit) {
      this.#used++;
      return "pass";
    }
    this.#dropped++;
    return this.#used++ === this.limit ? "first-drop" : "drop";
  }

  /** How many events were dropped since the last call (and resets the count). */
  takeDropped(): number {
    const dropped = this.#dropped;
    this.#dropped = 0;
    return dropped;
  }
}
