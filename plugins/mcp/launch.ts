/**
 * How a server is started: inside the sandbox `bash` uses (kit/), in its own pid namespace,
 * with the project writable, every `.hel` hidden but the files its entry names (read-only),
 * the home folders hidden but toolchains, a private writable cache for launchers such as `npx`
 * and `uvx`, and only the base environment plus its entry's `env`. An entry with
 * `"sandbox": false` (or a run with `--sandbox off`) runs directly, with hel's rights, and
 * never through a PATH folder inside the project: the model can write there (`.venv/bin`,
 * `node_modules/.bin`), so a program found there would be the model's.
 *
 * @module
 */
import { resolve } from "node:path";
import type { PluginContext } from "../../core/mod.ts";
import { sha256Hex } from "../../kit/mod.ts";
import {
  createSandbox,
  namedPaths,
  pathOutside,
  type Sandbox,
  type SandboxSettings,
} from "../../kit/mod.ts";
import type { ServerConfig } from "./config.ts";
import { baseEnvironment, entryEnvironment } from "./server_env.ts";
import { headerVariables, type RemoteHeaders, remoteHeaders } from "./remote_headers.ts";
import { type RunAuth, runAuth } from "./oauth_run.ts";

/** A server ready to spawn, or why it cannot start. */
export type Launch =
  | {
    ok: true;
    program: string;
    args: string[];
    env: Record<string, string>;
    /** The environment the command is looked up with, as the server will see it. */
    lookupEnv: Record<string, string>;
    sandboxed: boolean;
  }
  | { ok: false; reason: string };

/** Starts servers the way their entries and the run's flags say. */
export interface Launcher {
  launch(config: ServerConfig): Promise<Launch>;
  /** The names of the variables the server receives (never their values), sorted. */
  variableNames(config: ServerConfig): { names: string[]; unset: string[] };
  /** Whether the server runs inside the sandbox in this run (never for a remote one). */
  sandboxed(config: ServerConfig): boolean;
  /** A remote server's headers, their values from your environment (remote_headers.ts). */
  headers(config: ServerConfig): RemoteHeaders;
  /** A remote server's stored OAuth login, for the SDK to send and refresh (oauth_run.ts). */
  auth(config: ServerConfig): Promise<RunAuth>;
}

/** Variables that send launchers' caches to the private cache folder. */
function cacheVariables(cache: string): Record<string, string> {
  return {
    npm_config_cache: `${cache}/npm`,
    UV_CACHE_DIR: `${cache}/uv`,
    BUN_INSTALL_CACHE_DIR: `${cache}/bun`,
    PIP_CACHE_DIR: `${cache}/pip`,
    XDG_CACHE_HOME: `${cache}/xdg`,
  };
}

/**
 * Creates the launcher for this run's servers; `sandbox` are the run's settings (the kit's
 * `sandboxSettingsFor`), whose environment is replaced by the servers' base.
 */
export function createLauncher(context: PluginContext, runSettings: SandboxSettings): Launcher {
  const childEnv = context.childEnv();
  const settings = { ...runSettings, env: baseEnvironment(childEnv) };
  let sandbox: Sandbox | undefined;
  const sandboxed = (config: ServerConfig) =>
    settings.enabled && config.sandbox && config.remote === undefined;
  const serverEnv = (config: ServerConfig) => ({
    ...settings.env,
    ...entryEnvironment(config.env, childEnv).env,
  });
  return {
    sandboxed,
    headers(config) {
      if (!config.remote) return { ok: true, headers: {} };
      return remoteHeaders(config.remote, childEnv, config.file);
    },
    auth(config) {
      return runAuth(context.helHome, config, childEnv);
    },
    variableNames(config) {
      // A remote server gets no environment: only the variables its headers are read from.
      if (config.remote) return headerVariables(config.remote, childEnv);
      const { env, unset } = entryEnvironment(config.env, childEnv);
      // What the sandbox adds: a private temporary folder and the launchers' cache.
      const added = sandboxed(config)
        ? ["TMPDIR", "TMP", "TEMP", ...Object.keys(cacheVariables(""))]
        : [];
      const names = new Set([...Object.keys(settings.env), ...added, ...Object.keys(env)]);
      return { names: [...names].sort(), unset };
    },
    async launch(config) {
      const env = serverEnv(config);
      if (!sandboxed(config)) {
        const safe = { ...env, PATH: pathOutside(env.PATH ?? "", context.project) };
        return {
          ok: true,
          program: config.command,
          args: config.args,
          env: safe,
          lookupEnv: safe,
          sandboxed: false,
        };
      }
      sandbox ??= createSandbox(settings);
      const cache = await cacheFolder(context.helHome, context.project);
      const extra = { ...entryEnvironment(config.env, childEnv).env, ...cacheVariables(cache) };
      const prepared = await sandbox.prepare(config.command, config.args, {
        ...await namedPaths([config.command, ...config.args], context.project, {
          ...childEnv.HOME ? { home: childEnv.HOME } : {},
          helHome: context.helHome,
        }),
        writable: [cache],
        env: extra,
      });
      if (!prepared.ok) return { ok: false, reason: unavailableText(prepared.text, config.file) };
      return { ...prepared, lookupEnv: env, sandboxed: true };
    },
  };
}

/**
 * Why a server did not start when the sandbox cannot work here. The kit words its reason for
 * the model ("Ask the user to ..."); this is for the person, and names the server's own way out.
 */
function unavailableText(text: string, file: string): string {
  const parts = text.match(/^the command was not run: (.*)\. Ask the user to (.*) or restart /s);
  const [reason, fix] = parts ? [parts[1], parts[2]] : [text, undefined];
  return `not started: ${reason}; ` +
    (fix ? `to fix it, ${fix}, or ` : "") +
    `start hel with --sandbox off, or set "sandbox": false for this server in ${file} ` +
    "(either runs it with your rights)";
}

/**
 * The private cache of a project's sandboxed servers, outside the project (a server must not
 * reach another project's launcher cache, whose packages that project's servers would run).
 * Created if missing. Exported for tests, which fill it to spare a download.
 */
export async function cacheFolder(helHome: string, project: string): Promise<string> {
  const key = (await sha256Hex(new TextEncoder().encode(project))).slice(0, 16);
  const cache = `${resolve(helHome)}/cache/mcp/${key}`;
  await Deno.mkdir(cache, { recursive: true, mode: 0o700 });
  return cache;
}
