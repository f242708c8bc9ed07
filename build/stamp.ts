/**
 * The build stamp: the commit and time of a build, embedded into the binary for
 * `hel --version` (read by cli/version.ts). Each build writes its own file into
 * `.build-stamp/` under a unique name and embeds only that file, so builds running side by
 * side do not see each other's stamp; the file is removed when the build ends.
 *
 * @module
 */
import { type BuildStamp, gitOutput, STAMP_DIR } from "../cli/version.ts";

/**
 * The commit checked out in `root`, with `-dirty` when tracked files have changes (the build
 * embeds the working tree, not the commit); "unknown" outside a git checkout or without git.
 */
export async function buildCommit(root: string): Promise<string> {
  const commit = await gitOutput(root, "rev-parse", "HEAD");
  if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return "unknown";
  const changes = await gitOutput(root, "status", "--porcelain", "--untracked-files=no");
  return changes ? `${commit}-dirty` : commit;
}

/**
 * The build time: `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention) when set,
 * else now; ISO 8601 in UTC, to the second.
 */
export function buildDate(epoch = Deno.env.get("SOURCE_DATE_EPOCH"), now = new Date()): string {
  const seconds = epoch !== undefined && /^\d+$/.test(epoch) ? Number(epoch) : undefined;
  const date = seconds === undefined ? now : new Date(seconds * 1000);
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A stamp file on disk for one build; disposing removes it (and its folder when empty). */
export interface StampFile extends AsyncDisposable {
  /** Absolute path, passed to `deno compile --include`. */
  path: string;
  stamp: BuildStamp;
}

/** Writes `stamp` to a fresh file in `<root>/.build-stamp/`. */
export async function writeStamp(root: string, stamp: BuildStamp): Promise<StampFile> {
  const dir = `${root}/${STAMP_DIR}`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${crypto.randomUUID()}.json`;
  await Deno.writeTextFile(path, `${JSON.stringify(stamp, null, 2)}\n`, { createNew: true });
  return {
    path,
    stamp,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path).catch(() => {});
      await Deno.remove(dir).catch(() => {}); // refused while another build's stamp is there
    },
  };
}
