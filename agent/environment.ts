/**
 * Gathers the facts of the `Environment:` block.
 *
 * @module
 */
import type { EnvironmentFacts } from "./system_prompt.ts";

/** OS, working directory and date of this machine (plugins add their own lines). */
export function environmentFacts(cwd: string): EnvironmentFacts {
  let release = "unknown";
  try {
    release = Deno.osRelease();
  } catch {
    // Some sandboxes hide the release; "unknown" is honest.
  }
  return {
    os: `${Deno.build.os} ${release} (${Deno.build.arch})`,
    cwd,
    date: new Date().toISOString().slice(0, 10),
  };
}
