/**
 * The settings in a git configuration file that make git run a program: what a person must
 * see before running git in a repository a sandboxed command planted. The file is parsed by
 * git itself (`git config --no-includes --file - --list`, fed the bytes on stdin), so
 * no spelling git accepts can hide a setting from hel; git parsing a file runs nothing.
 *
 * @module
 */
import { runChild } from "../process/child.ts";

/** Keys (section and name lower case, as git lists them) whose value is a program to run. */
const PROGRAM_KEYS: readonly RegExp[] = [
  /^core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand)$/,
  /^(sequence\.editor|diff\.external|interactive\.difffilter|credential\.helper|web\.browser)$/,
  /^(gpg\.program|gpg\.ssh\.defaultkeycommand|sendemail\.(sendmailcmd|smtpserver|\w+cmd))$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^diff\..+\.(textconv|command)$/,
  /^(merge\..+\.driver|(diff|merge)tool\..+\.(cmd|path)|gpg\..+\.program)$/,
  /^(credential\..+\.helper|pager\..+|(browser|man)\..+\.(cmd|path))$/,
  /^(remote\..+\.(uploadpack|receivepack)|trailer\..+\.(command|cmd)|hook\..+\.command)$/,
  // Other files read as configuration: what they say counts too.
  /^(include\.path|includeif\..+\.path)$/,
];

/** Keys whose value runs a program only when it starts with `!`. */
const SHELL_KEYS = /^(alias\..+|submodule\..+\.update)$/;

/** Keys where a yes/no value means git's own behaviour, not a program. */
const BOOLEAN_KEYS = /^(core\.fsmonitor|pager\..+)$/;
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** One `key=value` pair as git listed it; value undefined for a bare `key`. */
export interface ConfigEntry {
  key: string;
  value: string | undefined;
}

/** Whether `entry` names a program git would run. */
export function runsProgram({ key, value }: ConfigEntry): boolean {
  const lower = key.toLowerCase();
  if (SHELL_KEYS.test(lower)) return value?.startsWith("!") ?? false;
  if (BOOLEAN_KEYS.test(lower) && BOOLEAN.test(value ?? "")) return false;
  return PROGRAM_KEYS.some((pattern) => pattern.test(lower));
}

/** Parses `git config --null --list` output. */
export function parseConfigList(output: string): ConfigEntry[] {
  return output.split("\0").filter((item) => item !== "").map((item) => {
    const newline = item.indexOf("\n");
    return newline === -1
      ? { key: item, value: undefined }
      : { key: item.slice(0, newline), value: item.slice(newline + 1) };
  });
}

/** What git made of a configuration file's text: its entries, or why it refused it. */
export type ParsedConfig = { ok: true; entries: ConfigEntry[] } | { ok: false; reason: string };

/**
 * Parses `text` with the `git` at `gitProgram` (a system one, never the project's). Nothing
 * else is read: no repository (GIT_DIR names none), no system or user configuration.
 */
export async function parseConfig(gitProgram: string, text: string): Promise<ParsedConfig> {
  const cached = parsed.get(text);
  if (cached) return cached;
  const result = await parseWithGit(gitProgram, text);
  // A repository's folder changes at every commit; its configuration seldom does.
  if (parsed.size >= 64) parsed.delete(parsed.keys().next().value!);
  parsed.set(text, result);
  return result;
}

const parsed = new Map<string, ParsedConfig>();

async function parseWithGit(gitProgram: string, text: string): Promise<ParsedConfig> {
  const outcome = await runChild({
    program: gitProgram,
    // Included files are read by hel itself: git would open any path, a FIFO too.
    args: ["config", "--no-includes", "--file", "-", "--null", "--list"],
    cwd: "/",
    env: {
      PATH: "/usr/bin:/bin",
      LC_ALL: "C",
      GIT_DIR: "/nonexistent/hel-no-repository",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      HOME: "/nonexistent",
    },
    stdin: text,
    captureBytes: 4 * 1024 * 1024,
    onOverflow: "kill",
    timeoutMs: 30_000,
    drainGraceMs: 1_000,
  });
  if (outcome.kind === "not-started") return { ok: false, reason: outcome.message };
  if (outcome.code !== 0 || outcome.truncated) {
    const why = outcome.stderr.trim().split("\n")[0] || `git exited with ${outcome.code}`;
    return { ok: false, reason: why.replace(/ in (file -|standard input)$/, "") };
  }
  return { ok: true, entries: parseConfigList(outcome.stdout) };
}
