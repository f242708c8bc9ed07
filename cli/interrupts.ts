/**
 * Ctrl-C while hel runs: the first aborts the request in flight, a third leaves even a stuck
 * shutdown; with no request in flight it leaves hel (the caller's `onIdle`).
 *
 * @module
 */
import type { Interrupts } from "./chat.ts";

/** Interrupts for one invocation; `dispose` removes the signal listener. */
export function createInterrupts(onIdle: () => void): Interrupts & {
  dispose(): void;
  interrupted(): boolean;
  abort(): void;
} {
  let controller = new AbortController();
  let count = 0;
  let busy = false;
  const onSignal = () => {
    count++;
    if (!busy) return onIdle();
    if (count >= 3) Deno.exit(130); // a stuck shutdown must not trap the user
    controller.abort(new Error("interrupted"));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  return {
    next() {
      if (controller.signal.aborted) controller = new AbortController();
      count = 0;
      busy = true;
      return controller.signal;
    },
    idle: () => {
      busy = false;
    },
    interrupted: () => count > 0,
    abort: () => controller.abort(new Error("terminated")),
    dispose: () => Deno.removeSignalListener("SIGINT", onSignal),
  };
}
