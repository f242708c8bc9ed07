/**
 * What the sandbox shows of the home folders. The system is bound read-only, so without this
 * a command could read `~/.ssh`, `~/.aws`, tokens in `~/.config`, and other projects' session
 * transcripts. Home folders (`/home`, `/root`, `$HOME`) and mounted drives (`/mnt`, `/media`)
 * are covered by empty tmpfs mounts instead; the toolchains and caches commands need are bound back read-only, with the
 * credential files inside them covered again; `--sandbox-read` adds paths the user chose.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "../../core/mod.ts";
import { isWithin } from "../paths.ts";

/**
 * Home-relative trees bound back read-only: toolchains (their programs, libraries and
 * caches) and git's settings. Chosen to carry no credentials; see {@link SECRET_FILES} for the
 * few that sit inside them. Anything else is one `--sandbox-read` away.
 */
export const HOME_TOOLCHAINS = [
  ".cargo", // Rust: cargo, rustup proxies, installed binaries, registry cache
  ".rustup", // Rust toolchains
  ".deno", // deno install
  ".cache/deno", // Deno's module cache
  ".nvm", // Node versions
  ".npm", // npm's cache
  ".npm-global", // npm's usual user prefix: global packages and their programs
  ".bun", // Bun and its cache
  ".volta", // Volta-managed Node
  ".local/share/pnpm", // pnpm and its store
  ".pyenv", // Python versions
  ".local/bin", // pip --user, pipx and uv tool programs
  ".local/lib", // pip --user packages
  ".local/share/uv", // uv's Pythons and tools
  ".local/share/pipx", // pipx's environments, where its ~/.local/bin links point
  ".cache/uv", // uv's cache
  ".cache/pip", // pip's cache
  "go", // Go: GOPATH, module cache, installed programs
  ".cache/go-build", // Go's build cache
  ".gitconfig", // git's user settings (name, email, aliases)
  ".config/git", // git's settings, attributes and ignores
] as const;

/**
 * Folders holding people's data rather than the system: the home folders, and where disks,
 * shares and (on WSL) the Windows drives with their users' folders are mounted.
 */
export const PRIVATE_FOLDERS = ["/home", "/root", "/mnt", "/media"] as const;

/** Variables naming a toolchain folder of their own (GOPATH may list several). */
export const TOOLCHAIN_VARIABLES = [
  "CARGO_HOME",
  "RUSTUP_HOME",
  "DENO_DIR",
  "DENO_INSTALL",
  "NVM_DIR",
  "BUN_INSTALL",
  "VOLTA_HOME",
  "PNPM_HOME",
  "PYENV_ROOT",
  "GOPATH",
  "GOMODCACHE",
  "GOCACHE",
] as const;

/** Credential files inside the trees above, covered again: cargo's registry tokens, git's store. */
const SECRET_FILES = [
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".config/git/credentials",
] as const;

/** The mounts {@link bwrapArguments} adds for the home folders, all of them existing paths. */
export interface HomeView {
  /** Folders covered by an empty tmpfs, before anything is bound back. */
  hidden: string[];
  /** Toolchain trees bound back read-only over the cover. */
  readable: string[];
  /** Credential files inside `readable`, covered again. */
  secrets: string[];
  /** `--sandbox-read` paths, bound read-only after the covers. */
  extra: string[];
  /** `$HEL_HOME` outside the project: covered by an empty tmpfs after all the above. */
  helHome?: string;
}

/** What {@link homeView} looks at. */
export interface HomeViewInput {
  /** hel's environment for children (HOME, PATH, toolchain variables). */
  env: Readonly<Record<string, string>>;
  /** Canonical project: what lies inside it is bound anyway. */
  project: string;
  /** `$HEL_HOME` as hel uses it. */
  helHome?: string;
  /** `--sandbox-read` paths, already checked by {@link parseSandboxReads}. */
  extra?: readonly string[];
}

/** `path` with symlinks resolved, or undefined when it does not exist. */
async function real(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` (as given or resolved) lies strictly inside one of `folders`. */
function strictlyInside(path: string, resolved: string, folders: readonly string[]): boolean {
  return folders.some((folder) =>
    [path, resolved].some((p) => p !== folder && isWithin(folder, p))
  );
}

/**
 * The home folders to hide and what to bind back, looked up anew for each command (a folder
 * that vanished in between would make bubblewrap fail). Paths are the ones commands use
 * (`$HOME/.cargo/bin` as PATH names it); bubblewrap follows symlinks in the sources.
 */
export async function homeView(input: HomeViewInput): Promise<HomeView> {
  const { env, project } = input;
  const home = env.HOME && isAbsolute(env.HOME) ? resolve(env.HOME) : undefined;
  // Covered where they really are: a HOME of /home/u that links to /data/u is /data/u.
  const hidden: string[] = [];
  const covered: string[] = []; // as named and as resolved, to tell what lies inside
  for (const folder of [...PRIVATE_FOLDERS, ...(home ? [home] : [])]) {
    const resolved = await real(folder);
    if (!resolved || hidden.some((h) => isWithin(h, resolved))) continue;
    // The project is bound over it anyway (hel started in the home folder), and a remount of
    // the cover would then make the project read-only.
    if (isWithin(project, resolved)) continue;
    hidden.push(resolved);
    covered.push(folder, resolved);
  }
  const candidates = [
    ...(home ? HOME_TOOLCHAINS.map((rel) => `${home}/${rel}`) : []),
    ...(env.XDG_CONFIG_HOME ? [`${env.XDG_CONFIG_HOME}/git`] : []),
    ...TOOLCHAIN_VARIABLES.flatMap((name) => (env[name] ?? "").split(":")),
    // The user's PATH: programs a command names must still start.
    ...(env.PATH ?? "").split(":"),
  ];
  const readable: string[] = [];
  for (const path of candidates.filter((p) => isAbsolute(p)).map((p) => resolve(p))) {
    const resolved = await real(path);
    // Only what the covers hid, never a home folder itself, nothing the project binds anyway.
    if (!resolved || !strictlyInside(path, resolved, covered)) continue;
    if (covered.some((folder) => isWithin(path, folder) || isWithin(resolved, folder))) continue;
    if (isWithin(project, resolved) || readable.some((r) => isWithin(r, path))) continue;
    readable.push(path);
  }
  const secretCandidates = [
    ...(home ? SECRET_FILES.map((rel) => `${home}/${rel}`) : []),
    ...(env.CARGO_HOME
      ? [`${env.CARGO_HOME}/credentials`, `${env.CARGO_HOME}/credentials.toml`]
      : []),
    ...(env.XDG_CONFIG_HOME ? [`${env.XDG_CONFIG_HOME}/git/credentials`] : []),
  ];
  const secrets: string[] = [];
  for (const path of secretCandidates) {
    // Inside a toolchain, or a folder shown on request (a server entry naming `~/.cargo`);
    // not when a request names the file itself (`--sandbox-read ~/.cargo/credentials.toml`).
    const extra = input.extra ?? [];
    if (extra.includes(path) || secrets.includes(path)) continue;
    if (![...readable, ...extra].some((r) => isWithin(r, path))) continue;
    // A file: /dev/null is bound over it (a folder of that name is no credential file).
    if ((await Deno.stat(path).catch(() => undefined))?.isFile) secrets.push(path);
  }
  const view: HomeView = { hidden, readable, secrets, extra: [...input.extra ?? []] };
  if (input.helHome) {
    const helHome = resolve(project, input.helHome);
    const resolved = await real(helHome);
    // Not when it holds what commands must see (HEL_HOME=/ or =$HOME): a cover would hide it.
    const holds = [...readable, ...view.extra, ...home ? [home] : []]
      .some((path) => isWithin(helHome, path) || (resolved && isWithin(resolved, path)));
    if (resolved && !isWithin(project, resolved) && !holds) view.helHome = resolved;
  }
  return view;
}

/**
 * `--sandbox-read PATH...`: each absolute or `~/`-relative, existing; returned as given with
 * `~` expanded (the path commands will use). Anything else is a usage error naming the fix.
 */
export function parseSandboxReads(value: unknown, home: string | undefined): string[] {
  const given = Array.isArray(value) ? value.map(String) : [];
  return given.map((text) => {
    let path = text;
    if (text === "~" || text.startsWith("~/")) {
      if (!home) {
        throw new UsageError(
          `--sandbox-read ${text}: HOME is not set, so ~ means nothing; give an absolute path`,
        );
      }
      path = home + text.slice(1);
    }
    if (!isAbsolute(path)) {
      throw new UsageError(
        `--sandbox-read ${text}: a relative path; give an absolute path or one starting with ~/ ` +
          "(the working directory is visible in the sandbox already)",
      );
    }
    try {
      Deno.statSync(path);
    } catch {
      throw new UsageError(
        `--sandbox-read ${text}: ${path} does not exist; check the spelling, or leave the flag out`,
      );
    }
    return resolve(path);
  });
}
