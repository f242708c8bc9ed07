/**
 * Stopping a server and everything it started: close its stdin, wait, SIGTERM to its process
 * group, wait, SIGKILL to the group, wait. Signalling the group (not just the child) is what
 * ends the real server behind a wrapper such as `npx`.
 *
 * @module
 */
import { processGroupAlive, signalProcessGroup } from "../../kit/mod.ts";

/** How long each step waits for the group to go, unless the caller says otherwise. */
export const DEFAULT_SHUTDOWN_WAIT_MS = 2_000;
const POLL_MS = 20;

/** How far the sequence had to go. */
export type ShutdownStep =
  | "already-gone"
  | "stdin"
  | "sigterm"
  | "sigkill"
  | "survived"
  // A remote server's session ended and its streams closed (remote_transport.ts).
  | "closed";

/**
 * True while a process of group `pgid` is alive. On Linux zombies (exited, not yet reaped by
 * whoever adopted them) do not count: they hold no resources and cannot be signalled away.
 */
export function groupAlive(pgid: number): boolean {
  if (!processGroupAlive(pgid)) return false;
  if (Deno.build.os !== "linux") return true;
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const fields = statFields(entry.name);
      if (fields && fields.pgrp === pgid && fields.state !== "Z") return true;
    }
    return false;
  } catch {
    return true;
  }
}

function statFields(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: rest[0] ?? "", pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

/** Waits until `done()` holds or `ms` pass; returns whether it holds. */
async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * Runs the shutdown sequence for the group led by `pgid`; `closeStdin` ends the server's input
 * (its signal to exit on its own). Never throws.
 */
export async function shutdownProcessGroup(
  pgid: number,
  closeStdin: () => void,
  waitMs: number,
): Promise<ShutdownStep> {
  const gone = () => !groupAlive(pgid);
  if (gone()) {
    closeStdin();
    return "already-gone";
  }
  closeStdin();
  if (await waitUntil(gone, waitMs)) return "stdin";
  signalProcessGroup(pgid, "SIGTERM");
  if (await waitUntil(gone, waitMs)) return "sigterm";
  signalProcessGroup(pgid, "SIGKILL");
  return await waitUntil(gone, waitMs) ? "sigkill" : "survived";
}

/** Last resort on a hurried exit: SIGKILL every group still alive, synchronously. */
export function killGroupsNow(pgids: Iterable<number>): void {
  for (const pgid of pgids) signalProcessGroup(pgid, "SIGKILL");
}
