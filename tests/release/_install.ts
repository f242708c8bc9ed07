/**
 * Shared by the install.sh tests: a local release server with stand-in assets (each "binary" is
 * a small shell script labelled as a stand-in that prints a version line, not hel) and a runner
 * of the script under dash (plain POSIX sh), as `curl ... | sh` would on Debian and Ubuntu.
 *
 * @module
 */
import { sha256Hex } from "../../kit/trust/file_store.ts";
import { REPO_ROOT, runCommand } from "../_helpers.ts";

/** The script under test. */
export const INSTALL_SH = `${REPO_ROOT}/install.sh`;
/** dash by its path: one test runs the script with a PATH that lacks it. */
export const DASH = ["/usr/bin/dash", "/bin/dash"].find((path) => exists(path)) ?? "dash";

/** True when `path` is a file (following links). */
export function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** A stand-in release binary: a shell script that prints `hel <version> (stand-in)`. */
export function standIn(version: string): string {
  return `#!/bin/sh\n# stand-in for a hel release binary (install.sh test), not hel\n` +
    // Where it was run from, when a test asks (HEL_STANDIN_LOG).
    `[ -n "\${HEL_STANDIN_LOG:-}" ] && echo "$0" >> "$HEL_STANDIN_LOG"\n` +
    `echo "hel ${version} (stand-in)"\n`;
}

/** The SHA-256 of `text` (UTF-8), in hex, as SHA256SUMS lists it. */
export const sha256 = (text: string) => sha256Hex(new TextEncoder().encode(text));

/** A release as the server serves it: file name → content. */
export async function release(
  version: string,
  { corrupt = "" } = {},
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const sums: string[] = [];
  for (const name of ["hel-linux-x64", "hel-linux-arm64", "hel-macos-x64", "hel-macos-arm64"]) {
    const body = standIn(`${version} ${name}`);
    files.set(name, name === corrupt ? body.replace("stand-in", "tampered") : body);
    sums.push(`${await sha256(body)}  ${name}\n`);
  }
  files.set("SHA256SUMS", sums.join(""));
  return files;
}

/** A running release server and the temp folder of one test; disposing removes both. */
export interface Setup extends AsyncDisposable {
  /** The temp folder: `home/` is the installing user's home, the rest is install.sh's TMPDIR. */
  root: string;
  /** The server's address (`HEL_INSTALL_BASE`). */
  base: string;
  /** Paths the server was asked for. */
  requests: string[];
}

/** Serves `/latest/download/*` (the release "0.2.0") and `/download/<tag>/*`. */
export async function setup(releases: Record<string, Map<string, string>>): Promise<Setup> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-install-" }));
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    const match = path.match(/^\/(?:latest\/download|download\/([^/]+))\/([^/]+)$/);
    const tag = match ? (match[1] ?? "latest") : undefined;
    const body = tag === undefined ? undefined : releases[tag]?.get(match![2]!);
    return body === undefined ? new Response("not found", { status: 404 }) : new Response(body);
  });
  return {
    root,
    base: `http://127.0.0.1:${server.addr.port}`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** The environment install.sh runs in: the test's home and temp folder, the local server. */
export function installEnv(s: Setup, env: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: `${s.root}/home`,
    TMPDIR: s.root,
    HEL_INSTALL_BASE: s.base,
    HEL_INSTALL_OS: "Linux",
    HEL_INSTALL_ARCH: "x86_64",
    ...env,
  };
}

/** Runs install.sh under dash with `args`, in {@link installEnv}'s environment only. */
export function install(s: Setup, args: string[] = [], env: Record<string, string> = {}) {
  return runCommand(DASH, [INSTALL_SH, ...args], { env: installEnv(s, env), clearEnv: true });
}

/** Where install.sh puts hel by default. */
export const installed = (s: Setup) => `${s.root}/home/.local/bin/hel`;

/** What `<path> --version` prints. */
export async function runInstalled(path: string): Promise<string> {
  const output = await new Deno.Command(path, { args: ["--version"], stdout: "piped" }).output();
  return new TextDecoder().decode(output.stdout);
}

/** Files left in the temp root besides home/ (install.sh must clean up after itself). */
export async function leftovers(s: Setup): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(s.root)) if (entry.name !== "home") names.push(entry.name);
  const bin = `${s.root}/home/.local/bin`;
  if (await Deno.stat(bin).then(() => true, () => false)) {
    for await (const entry of Deno.readDir(bin)) if (entry.name !== "hel") names.push(entry.name);
  }
  return names;
}

/** A PATH of only the tools install.sh may use, without curl and sha256sum (wget, shasum). */
export async function toolsWithoutCurl(s: Setup): Promise<string> {
  const bin = `${s.root}/home/tools`;
  await Deno.mkdir(bin, { recursive: true });
  const tools = ["awk", "cat", "chmod", "cp", "cut", "grep", "head", "ls", "mkdir", "mktemp", "mv"];
  for (const tool of [...tools, "perl", "rm", "shasum", "tr", "uname", "wget"]) {
    const path = ["/usr/bin", "/bin"].map((dir) => `${dir}/${tool}`).find(exists);
    if (path) await Deno.symlink(path, `${bin}/${tool}`);
  }
  return bin;
}
