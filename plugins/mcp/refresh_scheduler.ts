/**
 * When to re-list a server after it announced a change: a burst of announcements (a server
 * registering seven tools sends seven) makes one refresh after a short quiet time, at most one
 * refresh per server and list runs at a time (an announcement during it makes one more after
 * it), and refreshes of the same list start at least {@link MIN_GAP_MS} apart, so a server
 * announcing changes without end costs a bounded amount of work.
 *
 * @module
 */

/** Quiet time after an announcement before the refresh starts. */
export const DEBOUNCE_MS = 200;
/** Least time between the starts of two refreshes of the same server and list. */
export const MIN_GAP_MS = 1_000;

interface Slot {
  timer?: ReturnType<typeof setTimeout>;
  running?: Promise<void>;
  /** An announcement came while the refresh ran. */
  again: boolean;
  lastStart: number;
  /** Announcements so far, and how many of them the last finished refresh covered. */
  heard: number;
  covered: number;
}

/** Runs `refresh(key)` for announcements of `key`, debounced and bounded (module comment). */
export class RefreshScheduler {
  readonly #refresh: (key: string) => Promise<void>;
  readonly #debounceMs: number;
  readonly #minGapMs: number;
  readonly #slots = new Map<string, Slot>();
  #closed = false;

  constructor(
    refresh: (key: string) => Promise<void>,
    options: { debounceMs?: number; minGapMs?: number } = {},
  ) {
    this.#refresh = refresh;
    this.#debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.#minGapMs = options.minGapMs ?? MIN_GAP_MS;
  }

  /** `key` changed: a refresh follows (one for a whole burst). */
  notify(key: string): void {
    if (this.#closed) return;
    const slot = this.#slots.get(key) ??
      { again: false, lastStart: -Infinity, heard: 0, covered: 0 };
    this.#slots.set(key, slot);
    slot.heard++;
    if (slot.running) {
      slot.again = true;
      return;
    }
    if (slot.timer === undefined) this.#schedule(key, slot);
  }

  /**
   * Resolves once every announcement heard so far has been covered by a finished refresh, or
   * after `maxMs`, whichever is first. Announcements that come while it waits are not waited
   * for, so a server announcing without end cannot hold a request up past one refresh.
   */
  async settled(maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    const owed = [...this.#slots.values()].flatMap((slot) =>
      slot.heard > slot.covered ? [{ slot, heard: slot.heard }] : []
    );
    while (!this.#closed && Date.now() < deadline) {
      const open = owed.filter(({ slot, heard }) => slot.covered < heard);
      if (open.length === 0) return;
      const running = open.flatMap(({ slot }) => slot.running ?? []);
      // A running refresh is waited for; a scheduled one is looked at again shortly.
      await within(
        running.length > 0 ? Promise.all(running) : undefined,
        Math.min(running.length > 0 ? Infinity : 20, deadline - Date.now()),
      );
    }
  }

  /** No refresh starts after this; one running is left to finish. */
  close(): void {
    this.#closed = true;
    for (const slot of this.#slots.values()) clearTimeout(slot.timer);
  }

  #schedule(key: string, slot: Slot): void {
    const wait = Math.max(this.#debounceMs, slot.lastStart + this.#minGapMs - Date.now());
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      if (this.#closed) return;
      slot.lastStart = Date.now();
      const covers = slot.heard;
      slot.running = this.#refresh(key).catch(() => {}).finally(() => {
        slot.running = undefined;
        slot.covered = covers;
        if (slot.again && !this.#closed) {
          slot.again = false;
          this.#schedule(key, slot);
        }
      });
    }, wait);
    // A pending refresh must not keep hel running once the run is over.
    Deno.unrefTimer(slot.timer as unknown as number);
  }
}

/** Waits for `work` (or nothing) at most `ms` milliseconds. */
async function within(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => timer = setTimeout(resolve, Math.max(0, ms)));
  try {
    await (work ? Promise.race([work, bound]) : bound);
  } finally {
    clearTimeout(timer);
  }
}
