/**
 * Handing the set-id filter (setid_filter.ts) to bubblewrap, which reads it from an inherited
 * file descriptor (`--seccomp 9`). Deno cannot pass extra descriptors to a child, so the
 * system's `/bin/sh` opens the filter file on fd 9 and `exec`s bwrap: bwrap stays hel's own
 * child (so `--die-with-parent` still means hel) and closes the descriptor after reading it.
 *
 * The file is written once per hel process into a private temporary folder (mode 0700),
 * removed when hel exits. Sandboxed commands never see it (their `/tmp` is private); should
 * the folder lie inside the project (hel started in `/tmp`), the sandbox covers it.
 *
 * @module
 */
import { isWithin } from "../paths.ts";
import { hostArch, setIdFilter } from "./setid_filter.ts";

/** The shell that opens the filter: absolute, never one found on a PATH. */
const SYSTEM_SHELL = "/bin/sh";
/** `$0` is bwrap, `$1` the filter file, the rest bwrap's arguments. */
const OPEN_AND_EXEC = 'f=$1; shift; exec "$0" --seccomp 9 "$@" 9<"$f"';

let written: Promise<string> | undefined;

/** The filter file's path, written on first use. */
function setIdFilterFile(): Promise<string> {
  written ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "hel-seccomp-" });
    const path = `${dir}/setid.bpf`;
    await Deno.writeFile(path, setIdFilter(hostArch()), { mode: 0o600, createNew: true });
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch {
        // Already gone.
      }
    });
    return path;
  })();
  // A failed write is tried again by the next command rather than remembered.
  written.catch(() => written = undefined);
  return written;
}

/**
 * The program and arguments that start bwrap with `bwrapArgs` (the mounts and switches), the
 * filter loaded, and `command` inside. Throws when the filter file cannot be written.
 */
export async function launchWithFilter(
  bwrap: string,
  bwrapArgs: readonly string[],
  command: readonly string[],
  project: string,
): Promise<{ program: string; args: string[] }> {
  const file = await setIdFilterFile();
  const dir = file.slice(0, file.lastIndexOf("/"));
  // After every other mount (the project's among them), so nothing uncovers it.
  const cover = isWithin(project, dir) ? ["--tmpfs", dir, "--remount-ro", dir] : [];
  return {
    program: SYSTEM_SHELL,
    args: ["-c", OPEN_AND_EXEC, bwrap, file, ...bwrapArgs, ...cover, "--", ...command],
  };
}
