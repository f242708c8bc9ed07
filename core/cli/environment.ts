/**
 * Gathers the facts of the `Environment:` block and reads the context file.
 *
 * @module
 */
import type { EnvironmentFacts } from "../system_prompt.ts";

/** OS, shell, working directory and date of this machine. */
export function environmentFacts(cwd: string): EnvironmentFacts {
  const shellPath = Deno.env.get("SHELL") ?? "/bin/sh";
  let release = "unknown";
  try {
    release = Deno.osRelease();
  } catch {
    // Some sandboxes hide the release; "unknown" is honest.
  }
  return {
    os: `${Deno.build.os} ${release} (${Deno.build.arch})`,
    shell: shellPath,
    cwd,
    date: new Date().toISOString().slice(0, 10),
  };
}

/**
 * Reads `<project>/<name>` when it is a regular file with non-blank text. Only the working
 * directory is looked at, never its parents.
 */
export async function readContextFile(
  project: string,
  name: string,
): Promise<{ name: string; text: string } | undefined> {
  try {
    const path = `${project}/${name}`;
    const info = await Deno.lstat(path);
    if (!info.isFile) return undefined;
    const text = await Deno.readTextFile(path);
    return text.trim() === "" ? undefined : { name, text };
  } catch {
    return undefined;
  }
}
