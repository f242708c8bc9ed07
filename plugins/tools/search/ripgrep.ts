/**
 * ripgrep for `glob` and `grep`: the program is found on PATH (never in a folder inside the
 * project, where a command could have put one), started inside the sandbox with
 * an argument array (never a shell string), `.hel` is always excluded (the exclusions come
 * last, so an include glob cannot bring it back), and replies are capped at
 * {@link MAX_ENTRIES} entries and {@link MAX_REPLY_BYTES} bytes.
 *
 * @module
 */
import type { ToolResult } from "../../../core/mod.ts";
import { findSystemProgram } from "../../../kit/mod.ts";
import { resolveInWorkspace, type Workspace } from "../workspace/confinement.ts";
import { runCommand } from "../shell/run_command.ts";
import type { Sandbox } from "../../../kit/mod.ts";

/** Entries (paths or matching lines) a reply lists at most. */
export const MAX_ENTRIES = 100;
/** UTF-8 bytes a reply holds at most, notice included. */
export const MAX_REPLY_BYTES = 10_000;
/** The reply when ripgrep found nothing. */
export const NO_MATCHES = "No matches found.";
const TRUNCATED = "\n[Results truncated. Narrow the path or pattern.]\n";

const COMMON = ["--no-config", "--no-follow", "--sort=path", "--color=never"];
// Case-insensitive, at any depth, as a name and as a folder: `.hel` never shows up.
const EXCLUDE_HEL = [
  "--iglob=!.hel",
  "--iglob=!.hel/**",
  "--iglob=!**/.hel",
  "--iglob=!**/.hel/**",
];

/** What the search tools need from the plugin. */
export interface SearchDeps {
  workspace: Workspace;
  sandbox: Sandbox;
  /** PATH used to find `rg`. */
  path: string;
  timeoutSeconds: number;
}

/** Where a search starts: the canonical path and the argument ripgrep gets for it. */
export type SearchRoot = { ok: true; arg: string; isDirectory: boolean } | {
  ok: false;
  text: string;
};

/** Resolves a search path inside the workspace (never into `.hel`). */
export async function searchRoot(workspace: Workspace, input: string): Promise<SearchRoot> {
  const resolved = await resolveInWorkspace(workspace, input);
  if (!resolved.ok) return resolved;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(resolved.path);
  } catch (error) {
    return { ok: false, text: `${input}: cannot read (${(error as Error).name})` };
  }
  if (!info.isDirectory && !info.isFile) {
    return { ok: false, text: `${input} is not a file or folder` };
  }
  const rel = resolved.path === workspace.project
    ? "."
    : `./${resolved.path.slice(workspace.project.length + 1)}`;
  return { ok: true, arg: rel, isDirectory: info.isDirectory };
}

/** ripgrep's stdout, or a failed result for the model. */
export type RipgrepRun = { ok: true; stdout: string; matched: boolean; warning?: string } | {
  ok: false;
  text: string;
};

/** Runs `rg` with the tool's arguments over `root` (a path relative to the project). */
export async function runRipgrep(
  deps: SearchDeps,
  toolArgs: readonly string[],
  root: string,
  signal: AbortSignal,
): Promise<RipgrepRun> {
  const rg = findSystemProgram("rg", deps.path, deps.workspace.project);
  if (!rg) {
    return {
      ok: false,
      text: "ripgrep (rg) is not installed, and glob and grep need it. Ask the user to install " +
        "the ripgrep package (apt install ripgrep, dnf install ripgrep, brew install ripgrep); " +
        "meanwhile use read_file or bash",
    };
  }
  const prepared = await deps.sandbox.prepare(rg, [
    ...COMMON,
    ...toolArgs,
    ...EXCLUDE_HEL,
    "--",
    root,
  ]);
  if (!prepared.ok) return prepared;
  const outcome = await runCommand({
    program: prepared.program,
    args: prepared.args,
    cwd: deps.workspace.project,
    env: prepared.env,
    timeoutMs: deps.timeoutSeconds * 1000,
    signal,
  });
  if (outcome.kind === "not-started") {
    return { ok: false, text: `could not run ripgrep: ${outcome.message}` };
  }
  if (outcome.timedOut) {
    return {
      ok: false,
      text: `ripgrep was still running after ${deps.timeoutSeconds} seconds and was stopped; ` +
        "narrow the path or pattern",
    };
  }
  if (outcome.code === 0 || outcome.code === 1) {
    return { ok: true, stdout: outcome.stdout, matched: outcome.code === 0 };
  }
  const stderr = outcome.stderr.trim();
  // Exit 2 with output: some files could not be read, the rest was searched.
  if (outcome.code === 2 && outcome.stdout !== "") {
    return { ok: true, stdout: outcome.stdout, matched: true, warning: stderr };
  }
  return {
    ok: false,
    text: `ripgrep failed (exit ${outcome.code ?? outcome.signal}): ${stderr}`,
  };
}

/** Control characters in a path are escaped so each entry stays on one line. */
export function displayPath(path: string): string {
  const plain = path.startsWith("./") ? path.slice(2) : path;
  // deno-lint-ignore no-control-regex
  return /[\x00-\x1f\x7f]/.test(plain) ? JSON.stringify(plain) : plain;
}

/** Cuts `text` to at most `limit` UTF-8 bytes without splitting a character. */
export function cutToBytes(text: string, limit: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return text;
  let end = limit;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** The reply for a list of entries: capped, with the truncation notice when cut. */
export function formatEntries(entries: readonly string[], warning?: string): ToolResult {
  if (entries.length === 0) return { ok: true, text: NO_MATCHES };
  const listed = entries.slice(0, MAX_ENTRIES).join("\n");
  const note = warning ? `\n[Some files could not be searched: ${warning}]` : "";
  const full = listed + note;
  const size = new TextEncoder().encode(full).length;
  if (entries.length <= MAX_ENTRIES && size <= MAX_REPLY_BYTES) return { ok: true, text: full };
  const room = MAX_REPLY_BYTES - new TextEncoder().encode(TRUNCATED).length;
  return { ok: true, text: cutToBytes(listed, room) + TRUNCATED };
}

/** The result for a failed search, bounded like any reply. */
export function searchFailure(text: string): ToolResult {
  return { ok: false, text: cutToBytes(text, MAX_REPLY_BYTES - "error: ".length) };
}
