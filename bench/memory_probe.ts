/**
 * Memory of a running process tree, from Linux `/proc`: the peak resident size (VmHWM) of one
 * process and of each of its descendants (MCP servers and their children), read at the moment
 * of the probe. Elsewhere every figure is undefined.
 *
 * @module
 */

function statusField(pid: number, field: string): number | undefined {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident set size of `pid` so far, in KiB. */
export function peakRssKiB(pid: number): number | undefined {
  return statusField(pid, "VmHWM");
}

/** Every descendant of `pid` (children, their children, ...). */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    let tasks: string[] = [];
    try {
      tasks = [...Deno.readDirSync(`/proc/${parent}/task`)].map((entry) => entry.name);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = Deno.readTextFileSync(`/proc/${parent}/task/${task}/children`);
        for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
          if (!found.includes(child)) {
            found.push(child);
            queue.push(child);
          }
        }
      } catch { /* the task ended meanwhile */ }
    }
  }
  return found;
}

/** Peak resident sizes of hel and of its descendants (summed), in KiB. */
export function treeMemory(
  pid: number,
): { helKiB?: number; childrenKiB?: number; children: number } {
  const children = descendants(pid);
  const sizes = children.map((child) => peakRssKiB(child)).filter((size) => size !== undefined);
  return {
    helKiB: peakRssKiB(pid),
    childrenKiB: sizes.length > 0 ? sizes.reduce((a, b) => a + b, 0) : undefined,
    children: children.length,
  };
}
