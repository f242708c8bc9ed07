/**
 * `hel --version [--json]`: which hel this is — version, git commit, build date, Deno version,
 * and whether it runs as a compiled binary or from source.
 *
 * A compiled binary reads what `deno task build` stamped into it (build/stamp.ts writes one
 * JSON file into `.build-stamp/` and embeds only that file); from source the commit comes from
 * git when hel's folder is a checkout of its own. `main.ts` answers `--version` before loading
 * anything else, so this module imports nothing but deno.json, the output layer and the
 * environment without the model API keys: `--version` stays fast.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };
// Loaded by main.ts before this module anyway: no cost to --version's start.
import { environmentWithoutSecrets } from "../kit/process/privacy.ts";
import { writeOut } from "../kit/output.ts";
import { clipChars } from "../core/text.ts";

/** Folder (beside deno.json) that holds the stamp of a build while it is compiled. */
export const STAMP_DIR = ".build-stamp";

/** What `deno task build` records about a build. */
export interface BuildStamp {
  /** Full commit id, with `-dirty` when the working tree had changes; or "unknown". */
  commit: string;
  /** When the binary was built (ISO 8601, UTC). */
  buildDate: string;
}

/** Everything `--version` reports; also the `--version --json` object. */
export interface VersionInfo {
  name: "hel";
  version: string;
  /** Full commit id (`-dirty` suffix for a build from a modified tree), or "unknown". */
  commit: string;
  /** Build time of a compiled binary; null when running from source. */
  buildDate: string | null;
  deno: string;
  compiled: boolean;
  /** The platform, as a Rust target triple. */
  target: string;
}

const VERSION_FLAGS = ["-v", "-V", "--version"];
const ROOT = new URL("../", import.meta.url);

/**
 * The version request in `argv`, or undefined when argv is anything else: one version flag,
 * optionally with `--json`, in either order, and nothing more.
 */
export function versionRequest(argv: readonly string[]): { json: boolean } | undefined {
  const flags = argv.filter((word) => VERSION_FLAGS.includes(word));
  const json = argv.filter((word) => word === "--json");
  if (flags.length !== 1 || json.length > 1) return undefined;
  if (flags.length + json.length !== argv.length) return undefined;
  return { json: json.length === 1 };
}

/** Parses a stamp file's text; undefined when it is not a stamp. */
export function parseStamp(text: string): BuildStamp | undefined {
  try {
    const value = JSON.parse(text);
    if (typeof value?.commit === "string" && typeof value?.buildDate === "string") {
      return { commit: value.commit, buildDate: value.buildDate };
    }
  } catch {
    // Not JSON: treated as no stamp.
  }
  return undefined;
}

/** The stamp embedded in this binary (the one file in `dir`), or undefined. */
export async function readStamp(dir: URL = new URL(`${STAMP_DIR}/`, ROOT)) {
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      return parseStamp(await Deno.readTextFile(new URL(entry.name, dir)));
    }
  } catch {
    // No stamp folder: a binary built some other way than build.ts.
  }
  return undefined;
}

/**
 * What `git -C dir <args>` printed, trimmed; undefined when it failed or git is missing. git is
 * a program hel starts like any other: the model API keys stay behind.
 */
export async function gitOutput(dir: string, ...args: string[]): Promise<string | undefined> {
  try {
    const output = await new Deno.Command("git", {
      args: ["-C", dir, ...args],
      env: environmentWithoutSecrets(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return output.success ? new TextDecoder().decode(output.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The commit of hel's source folder when that folder is itself the top of a git checkout
 * (not, say, a copy vendored inside another repository); "unknown" otherwise or without git.
 */
export async function sourceCommit(root: URL = ROOT): Promise<string> {
  if (root.protocol !== "file:") return "unknown";
  const dir = decodeURIComponent(root.pathname).replace(/\/$/, "");
  const [top, commit] = (await gitOutput(dir, "rev-parse", "--show-toplevel", "HEAD"))
    ?.split("\n") ?? [];
  if (top === undefined || !commit || !/^[0-9a-f]{40,64}$/.test(commit)) return "unknown";
  try {
    if ((await Deno.realPath(top)) === (await Deno.realPath(dir))) return commit;
  } catch {
    // A folder that went away meanwhile: not known.
  }
  return "unknown";
}

/** Collects the version facts of the running hel. */
export async function versionInfo(): Promise<VersionInfo> {
  const compiled = Deno.build.standalone === true;
  const stamp = compiled ? await readStamp() : undefined;
  return {
    name: "hel",
    version: denoJson.version,
    commit: compiled ? (stamp?.commit ?? "unknown") : await sourceCommit(),
    buildDate: compiled ? (stamp?.buildDate ?? "unknown") : null,
    deno: Deno.version.deno,
    compiled,
    target: Deno.build.target,
  };
}

/** The human-readable report: `hel <version>` on the first line, one fact per line after. */
export function formatVersion(info: VersionInfo): string {
  // A binary may have been built by anyone: its stamp is cut to a line's worth (the output
  // layer, writeOut, shows any control character in it as text).
  const clean = (text: string) => clipChars(text, 80);
  return [
    `hel ${info.version}`,
    `commit  ${clean(info.commit)}`,
    `built   ${info.buildDate === null ? "- (running from source)" : clean(info.buildDate)}`,
    `deno    ${info.deno}`,
    `mode    ${info.compiled ? "compiled binary" : "source"} (${info.target})`,
  ].join("\n") + "\n";
}

function writeStdout(text: string) {
  try {
    writeOut(text);
  } catch (error) {
    // The reader went away (`hel --version | true`): nothing is wrong, nothing to say.
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

/** Writes the report (text or JSON) with `write`; returns the exit code. */
export async function printVersion(
  request: { json: boolean },
  write: (text: string) => void = writeStdout,
): Promise<number> {
  const info = await versionInfo();
  write(request.json ? `${JSON.stringify(info)}\n` : formatVersion(info));
  return 0;
}
