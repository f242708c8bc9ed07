/**
 * Writing eval results (run folders, raw logs, reports) through hel's link-refusing writers:
 * a run's workspace is where the model's commands ran, so nothing read from or beside it is
 * trusted to be a plain file. Results are readable by others, as reports are meant to be shared.
 *
 * @module
 */
import { dirname } from "node:path";
import type { RunRecord } from "../agent/record.ts";
import { openFileNoFollow, UnsafePathError, writeFileAtomic } from "../kit/mod.ts";
import type { Provenance } from "./provenance.ts";

const MODES = { mode: 0o644, folderMode: 0o755 };

/** Replaces `path` below `root` whole (see writeFileAtomic); `root` defaults to its folder. */
export function writeResultFile(
  path: string,
  data: string | Uint8Array,
  root = dirname(path),
): Promise<void> {
  return writeFileAtomic(root, path, data, MODES);
}

/** Writes `value` as indented JSON, as {@link writeResultFile}. */
export function writeResultJson(path: string, value: unknown, root?: string): Promise<void> {
  return writeResultFile(path, JSON.stringify(value, null, 2) + "\n", root);
}

/** Opens `path` below `root` for writing from its start, refusing a link there. */
export function openResultFile(root: string, path: string): Promise<Deno.FsFile> {
  return openFileNoFollow(root, path, { ...MODES, truncate: true });
}

/**
 * The bytes of `path` when it is a plain file (a link, which a command in the workspace could
 * have put there to copy one of the user's files into the results, is refused).
 */
export async function readPlainFile(path: string): Promise<Uint8Array> {
  const info = await Deno.lstat(path);
  if (!info.isFile) {
    throw new UnsafePathError(path, `${path} is not a plain file (a link?); it was not copied`);
  }
  return await Deno.readFile(path);
}

/**
 * `record.json` of an eval run: hel's record, completed by the runner with the run's identity
 * (`run`), hel's build (`harness.build`), honest token labels (`usage`, see tokens.ts) and the
 * run's provenance, whose key decides whether the run may be reused.
 */
export type EvalRecord = RunRecord & { provenance?: Provenance };
