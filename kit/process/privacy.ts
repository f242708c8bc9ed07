/**
 * Keeping hel's own environment, which holds the model API key, from the programs it starts.
 * Children get an environment without the key, but on Linux any process of the same user may
 * read `/proc/<hel's pid>/environ`: a hook, an MCP server, or bash run with `--sandbox off`.
 * Marking hel non-dumpable makes its `/proc` entries readable only by privileged processes.
 * Children are not affected: `exec` makes them dumpable again.
 *
 * @module
 */
import { surroundings } from "../surroundings.ts";

/** Model API keys never reach child processes (tools, hooks, MCP servers). */
export const SECRET_ENV_NAMES = [
  "HEL_API_KEY",
  "DEEPSEEK_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
] as const;

/** hel's environment without the model API keys: what a program hel starts may inherit. */
export function environmentWithoutSecrets(): Record<string, string> {
  const env = surroundings().environment();
  for (const name of SECRET_ENV_NAMES) delete env[name];
  return env;
}

const PR_SET_DUMPABLE = 4;

/**
 * Marks this process non-dumpable (Linux). Returns false where that is not possible (another
 * OS, no libc to call, or no permission for FFI); hel then runs as before.
 */
export function hideOwnEnvironment(): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
    });
    try {
      return libc.symbols.prctl(PR_SET_DUMPABLE, 0n, 0n, 0n, 0n) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}
