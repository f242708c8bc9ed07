/**
 * The sandbox for programs the model starts (bash, and ripgrep for glob/grep): bubblewrap on
 * Linux. Inside it the whole system is read-only, the home folders are hidden but for the
 * toolchains commands need (see home.ts), `$HEL_HOME` is hidden, the working directory
 * is the one writable place, `.hel` is covered by an empty read-only tmpfs, the project's git metadata stays
 * read-only (see git_metadata.ts; bound anew before each command, so a `.git` a command
 * created is read-only for the next one), `/tmp` and `/run` are private, all
 * capabilities are dropped, the program gets new namespaces (pid, ipc, uts, and network unless
 * it is allowed) and dies with hel. A seccomp filter keeps it from making set-uid or set-gid
 * files (setid_filter.ts); variables named like credentials stay out of its environment, with
 * `--sandbox off` too (environment.ts); how many processes it runs at once is limited
 * (process_limit.ts). There is no silent fallback: without a usable
 * bubblewrap these tools refuse, unless the user opted out with `--sandbox off`.
 *
 * @module
 */
import { errorMessage } from "../../core/errors.ts";
import { findSystemProgram } from "../process/group.ts";
import { runChild } from "../process/child.ts";
import { dirname } from "node:path";
import { isWithin } from "../paths.ts";
import { withoutSecrets } from "./environment.ts";
import { gitMetadata } from "./git_metadata.ts";
import { nestedHelFolders } from "./hel_folders.ts";
import { type HomeView, homeView } from "./home.ts";
import { type GitChange, gitWatch, knownGitWatch } from "./planted_git.ts";
import { procCovers } from "./proc_covers.ts";
import { launchWithFilter } from "./seccomp.ts";
import {
  DEFAULT_MAX_PROCESSES,
  joinCgroup,
  type ProcessLimit,
  processLimit,
} from "./process_limit.ts";

/** How programs are run, from the plugin's flags. */
export interface SandboxSettings {
  /** False for `--sandbox off`: programs run directly, with hel's rights. */
  enabled: boolean;
  /** `--sandbox-network`: whether sandboxed programs may use the network. */
  network: boolean;
  /** Canonical working directory (writable inside). */
  project: string;
  /** The project's `.hel` folder (hidden inside). */
  helDir: string;
  /**
   * `$HEL_HOME` when it lies inside the project (read-only inside, like the rest of the
   * system): commands must not write the trust store.
   */
  helHome?: string;
  /** `--allow-git-writes`: the project's git metadata stays writable like the rest. */
  gitWritable?: boolean;
  /**
   * `$HEL_HOME` as hel uses it, wherever it lies: outside the project it is hidden (the trust
   * store, every project's sessions).
   */
  helHomeAnywhere?: string;
  /** `--sandbox-read`: extra paths, checked already, bound read-only. */
  extraReads?: readonly string[];
  /** hel's environment for children, model API keys already removed. */
  env: Record<string, string>;
  /** `--sandbox-env`: variables passed although their names look like credentials. */
  passEnv?: readonly string[];
  /** Processes and threads the sandbox runs at once (default 1024; see process_limit.ts). */
  maxProcesses?: number;
  /** Told once when a safeguard (the process limit) cannot be applied here. */
  warn?: (text: string) => void;
}

/** A program ready to start, or why it must not. */
export type Prepared =
  | { ok: true; program: string; args: string[]; env: Record<string, string> }
  | { ok: false; text: string };

/** What one program needs beyond the common profile. */
export interface PrepareOptions {
  /**
   * Files inside hidden `.hel` folders that the program needs (a hook's script in `.hel/`, a
   * server's own script), bound back read-only. Absolute paths.
   */
  expose?: readonly string[];
  /** Existing folders outside the project bound writable (a server's private npm cache). */
  writable?: readonly string[];
  /**
   * Paths outside the project the sandbox would hide that the program needs, shown read-only
   * like `--sandbox-read` ones (a server's own folder; see named_paths.ts).
   */
  reads?: readonly string[];
  /** Variables set for this program on top of the settings' environment. */
  env?: Readonly<Record<string, string>>;
}

/** Prepares programs for the sandbox; the first use checks that bubblewrap works here. */
export interface Sandbox {
  prepare(program: string, args: readonly string[], options?: PrepareOptions): Promise<Prepared>;
  /**
   * Call when a program prepared here has ended: the git repositories created or changed in
   * the project since the previous look (see planted_git.ts), to tell the model. From the next
   * program on their settings are read-only, unless git writes are allowed. When this sandbox
   * is off, another one's watch of the project answers, if there is one.
   */
  afterRun(): Promise<GitChange[]>;
  /** Every change {@link afterRun} found in this project, for the report at the end of the run. */
  gitChanges(): readonly GitChange[];
}

/** The folders {@link bwrapArguments} covers inside the project beyond `.hel`, and what it shows. */
export interface HiddenInProject {
  /** Nested `.hel` folders (see hel_folders.ts), each covered like the project's own. */
  helFolders?: readonly string[];
  /** Files inside the covered `.hel` folders bound back read-only. */
  expose?: readonly string[];
  /** Folders outside the project bound writable (see {@link PrepareOptions}). */
  writable?: readonly string[];
}

/**
 * Folders under /run that must stay visible: where /etc/resolv.conf really lives (systemd,
 * NetworkManager and resolvconf keep it there), so name lookups work when network is on.
 */
export function runFoldersToKeep(): string[] {
  try {
    const resolv = Deno.realPathSync("/etc/resolv.conf");
    if (resolv.startsWith("/run/")) return [resolv.slice(0, resolv.lastIndexOf("/"))];
  } catch {
    // No resolv.conf: nothing to keep.
  }
  return [];
}

/**
 * The folders between the project and each of `paths`, parents first. A mount point cannot be
 * renamed, but the folder holding it can: `mv vendor v2` would carry `vendor/lib/.git` away and
 * leave room for a fresh one. Bound onto themselves (still writable), they cannot be moved.
 */
export function foldersToPin(project: string, paths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let dir = dirname(path); dir !== project && isWithin(project, dir); dir = dirname(dir)) {
      folders.add(dir);
    }
  }
  const depth = (path: string) => path.split("/").length;
  // Code-unit order, not localeCompare: the first locale comparison costs 10 ms of CPU.
  return [...folders].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The bubblewrap arguments that come before `--` and the program; `readOnly` are paths inside
 * the project that stay read-only (git metadata), `home` what is shown of the home folders.
 */
export function bwrapArguments(
  settings: SandboxSettings,
  keepInRun: readonly string[] = [],
  readOnly: readonly string[] = [],
  home?: HomeView,
  hidden: HiddenInProject = {},
): string[] {
  const { project, helDir } = settings;
  const helFolders = [helDir, ...hidden.helFolders ?? []];
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...procCovers(), // read-only kernel settings (they are root's, and root runs here too)
    "--tmpfs",
    "/tmp",
    // Sockets under /run (docker, dbus) stay reachable on a read-only mount; hide them.
    "--tmpfs",
    "/run",
    ...keepInRun.flatMap((dir) => ["--ro-bind-try", dir, dir]),
    // Order matters, later mounts cover earlier ones: the home folders are covered, then the
    // toolchains and the user's extra paths bound back, their credential files covered again,
    // `$HEL_HOME` covered, and only then the project (it may lie in a hidden folder).
    ...(home ? homeArguments(home) : []),
    "--bind",
    project,
    project,
    // A mount point cannot be renamed or removed; `-try` as it may vanish meanwhile.
    ...foldersToPin(project, [
      ...readOnly,
      ...(settings.helHome ? [settings.helHome] : []),
      ...helFolders,
    ]).flatMap((path) => ["--bind-try", path, path]),
    ...readOnly.flatMap((path) => ["--ro-bind-try", path, path]),
    // Every `.hel` is covered, the files a program needs from one bound back into the cover
    // (bwrap makes their mount points while it is still writable), then the cover made read-only.
    ...helFolders.flatMap((dir) => ["--tmpfs", dir]),
    ...(hidden.expose ?? []).flatMap((path) => ["--ro-bind-try", path, path]),
    ...(settings.helHome ? ["--ro-bind-try", settings.helHome, settings.helHome] : []),
    // After every cover (they may lie in `$HEL_HOME`, even in `.hel` when the project is the
    // home folder), before the covers turn read-only.
    ...(hidden.writable ?? []).flatMap((path) => ["--bind", path, path]),
    ...helFolders.flatMap((dir) => ["--remount-ro", dir]),
    // Only now, with every mount point inside them made: the covers stay read-only like the
    // rest of the system (a remount is not recursive, so the project stays writable).
    ...[...home?.hidden ?? [], ...home?.helHome ? [home.helHome] : []]
      .flatMap((dir) => ["--remount-ro", dir]),
    "--unshare-all",
    ...(settings.network ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--chdir",
    project,
  ];
}

/** The mounts for the home folders, in the order {@link bwrapArguments} says. */
function homeArguments(home: HomeView): string[] {
  return [
    ...home.hidden.flatMap((dir) => ["--tmpfs", dir]),
    // `-try`: a folder may vanish between the look and the command.
    ...home.readable.flatMap((path) => ["--ro-bind-try", path, path]),
    ...home.extra.flatMap((path) => ["--ro-bind-try", path, path]),
    // After the extra paths too: a folder shown on request does not uncover them.
    ...home.secrets.flatMap((path) => ["--ro-bind", "/dev/null", path]),
    ...(home.helHome ? ["--tmpfs", home.helHome] : []),
  ];
}

/** The environment inside the sandbox: hel's without credentials, with a private temp folder. */
function sandboxEnv(settings: SandboxSettings): Record<string, string> {
  return {
    ...withoutSecrets(settings.env, settings.passEnv),
    TMPDIR: "/tmp",
    TMP: "/tmp",
    TEMP: "/tmp",
  };
}

/**
 * Creates the sandbox. `onUnavailable` is told why, for a warning on the terminal, when the
 * sandbox cannot be used: once per project in a run, however many sandboxes (tools, hooks) find
 * it, since the text already names everything that will not run.
 */
export function createSandbox(
  settings: SandboxSettings,
  onUnavailable?: (text: string) => void,
): Sandbox {
  const keepInRun = runFoldersToKeep();
  // Started now: it reads the whole tree once, before any program could change it. It also
  // knows every nested `.hel` to hide (hel_folders.ts).
  const watch = settings.enabled
    ? gitWatch({
      project: settings.project,
      skip: [settings.helDir, ...settings.helHome ? [settings.helHome] : []],
      env: settings.env,
    })
    : undefined;
  return {
    // Off here, the sandbox of hooks may still watch: its finds are still worth telling.
    afterRun: () => (watch ?? knownGitWatch(settings.project))?.check() ?? Promise.resolve([]),
    gitChanges: () => (watch ?? knownGitWatch(settings.project))?.changes ?? [],
    async prepare(program, args, options = {}) {
      if (!settings.enabled) {
        // Still programs the model controls: the credentials stay out.
        return {
          ok: true,
          program,
          args: [...args],
          env: { ...withoutSecrets(settings.env, settings.passEnv), ...options.env },
        };
      }
      const found = await checkOnce(settings, keepInRun);
      if ("reason" in found && onUnavailable && !warned.has(settings.project)) {
        warned.add(settings.project);
        onUnavailable(
          `${found.reason}; programs in the sandbox (commands, hooks, MCP servers) will not ` +
            `run. To fix it, ${found.fix}, or start hel with --sandbox off to run them without ` +
            "a sandbox",
        );
      }
      if ("reason" in found) {
        return {
          ok: false,
          text: `the command was not run: ${found.reason}. Ask the user to ${found.fix} ` +
            "or restart hel with --sandbox off to run commands without a sandbox",
        };
      }
      // Both are looked up anew for each command (each may have changed); neither needs the other.
      const [readOnly, home, nested] = await Promise.all([
        settings.gitWritable ? Promise.resolve([]) : Promise.all([
          gitMetadata(settings.project),
          watch?.readOnly() ?? [],
        ]).then(([git, planted]) => [
          ...git.readOnly,
          ...planted.filter((path) => !git.readOnly.some((kept) => isWithin(kept, path))),
        ]),
        viewOfHome(settings, options.reads),
        watch ? nestedHelFolders(watch, settings.helDir) : [],
      ]);
      const limit = processLimitFor(settings);
      const hidden: HiddenInProject = {
        helFolders: nested,
        ...options.expose ? { expose: options.expose } : {},
        ...options.writable ? { writable: options.writable } : {},
      };
      const launch = await launchWithFilter(
        found.bwrap, // looked up once, by the first check (which wrote the filter, too)
        bwrapArguments(settings, keepInRun, readOnly, home, hidden),
        [...limit.inside, program, ...args],
        settings.project,
      );
      const joined = limit.cgroupProcs ? joinCgroup(launch, limit.cgroupProcs) : launch;
      // The program's own variables (a server's entry names them) come last, on purpose.
      return { ok: true, ...joined, env: { ...sandboxEnv(settings), ...options.env } };
    },
  };
}

/**
 * One per project in this process, whichever plugin's sandbox asks first (MCP servers' settings
 * are a copy with their own environment): one cgroup, one warning.
 */
const limits = new Map<string, ProcessLimit>();

function processLimitFor(settings: SandboxSettings): ProcessLimit {
  let limit = limits.get(settings.project);
  if (!limit) {
    const max = settings.maxProcesses ?? DEFAULT_MAX_PROCESSES;
    limit = processLimit(max, settings.env.PATH, settings.project);
    limits.set(settings.project, limit);
    if (limit.missing) settings.warn?.(limit.missing);
  }
  return limit;
}

/**
 * Whether bubblewrap works here, probed once per project in this process: the tools', the
 * hooks' and the MCP servers' sandboxes would otherwise each start a probe sandbox.
 */
const checks = new Map<string, Promise<Problem | { bwrap: string }>>();
/** The projects whose unusable sandbox was warned about in this run. */
const warned = new Set<string>();

function checkOnce(
  settings: SandboxSettings,
  keepInRun: readonly string[],
): Promise<Problem | { bwrap: string }> {
  let found = checks.get(settings.project);
  if (!found) {
    found = check(settings, keepInRun);
    checks.set(settings.project, found);
  }
  return found;
}

/** What the sandbox shows of the home folders now. */
function viewOfHome(settings: SandboxSettings, reads: readonly string[] = []): Promise<HomeView> {
  return homeView({
    env: settings.env,
    project: settings.project,
    ...(settings.helHomeAnywhere ? { helHome: settings.helHomeAnywhere } : {}),
    extra: [...settings.extraReads ?? [], ...reads],
  });
}

/** What keeps the sandbox from working, and what the user can do about it. */
interface Problem {
  reason: string;
  fix: string;
}

/** Why the sandbox cannot be used here, or the bwrap that works. */
async function check(
  settings: SandboxSettings,
  keepInRun: readonly string[],
): Promise<Problem | { bwrap: string }> {
  if (Deno.build.os !== "linux") {
    return {
      reason: "hel runs commands only inside a sandbox, and its sandbox (bubblewrap) exists " +
        "only on Linux",
      fix: "run hel on Linux",
    };
  }
  // Never a bwrap from inside the project: a sandboxed command could have put it there.
  const bwrap = findSystemProgram("bwrap", settings.env.PATH, settings.project);
  if (!bwrap) {
    return {
      reason: "hel runs commands only inside a sandbox, and bubblewrap (bwrap) is not installed",
      fix: "install the bubblewrap package (apt install bubblewrap, dnf install bubblewrap, " +
        "pacman -S bubblewrap)",
    };
  }
  const mounts = bwrapArguments(settings, keepInRun, [], await viewOfHome(settings));
  let launch: { program: string; args: string[] };
  try {
    launch = await launchWithFilter(bwrap, mounts, ["/bin/sh", "-c", "exit 0"], settings.project);
  } catch (error) {
    return {
      reason: `hel could not write its seccomp filter (${errorMessage(error)})`,
      fix: "make the temporary folder ($TMPDIR, else /tmp) writable",
    };
  }
  const probe = await runChild({
    ...launch,
    cwd: settings.project,
    env: sandboxEnv(settings),
    timeoutMs: 30_000,
    captureBytes: 64 * 1024,
    onOverflow: "drop",
    drainGraceMs: 1_000,
  });
  if (probe.kind === "finished" && probe.code === 0) return { bwrap };
  const detail = probe.kind === "not-started"
    ? probe.message
    : (probe.stderr.trim().split("\n")[0] ?? "") || `exit ${probe.code ?? probe.signal}`;
  return {
    reason: `bubblewrap cannot create a sandbox here (${detail})`,
    fix: /seccomp/i.test(detail)
      ? "run hel on a Linux kernel with seccomp filters (CONFIG_SECCOMP_FILTER)"
      : "allow unprivileged user namespaces for bwrap (on Ubuntu: sysctl " +
        "kernel.apparmor_restrict_unprivileged_userns=0)",
  };
}
