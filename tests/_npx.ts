/**
 * Spares the npm-server tests a download per test: sandboxed servers get a private launcher
 * cache per project (plugins/mcp/launch.ts), so every test's first `npx -y <package>` would
 * fetch and install the package again (about 10 s and 5–8 s of CPU on the 2-core machine).
 * {@link warmNpx} links an install made once per machine into the project's private cache;
 * `npx` then runs it as on a user's second run.
 *
 * @module
 */
import { cacheFolder } from "../plugins/mcp/launch.ts";
import type { TempProject } from "./_helpers.ts";
import { type McpProject, mcpProject } from "./_mcp.ts";

/** The pinned servers the tests start as users configure them: `npx -y <spec>`. */
export const EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31";
export const FILESYSTEM = "@modelcontextprotocol/server-filesystem@2026.8.31";
/** Set HEL_SKIP_NPM_TESTS=1 to skip the tests that need `npx` and the npm registry. */
export const ignoreNpm = Deno.env.get("HEL_SKIP_NPM_TESTS") === "1";
/** A first `npx` run downloads the package; give startup room for that. */
export const SLOW_START = ["--mcp-startup-timeout", "180"];

/** A trusted project whose one server, `everything`, is server-everything as users start it. */
export async function everythingProject(): Promise<McpProject> {
  const project = await mcpProject(() => ({
    everything: { command: "npx", args: ["-y", EVERYTHING, "stdio"] },
  }));
  try {
    await warmNpx(project, EVERYTHING);
  } catch (error) {
    await project[Symbol.asyncDispose]();
    throw error;
  }
  return project;
}

/** Where the installs made once are kept: `npx`'s `_npx` folder per package. */
const STORE = `${Deno.env.get("TMPDIR") ?? "/tmp"}/hel-test-npx`;

/**
 * Puts `npx`'s install of `spec` (e.g. `pkg@1.2.3`) in the private launcher cache hel gives the
 * project's sandboxed servers, installing it once per machine first.
 */
export async function warmNpx(project: TempProject, spec: string): Promise<void> {
  const installed = await installOnce(spec);
  const cache = await cacheFolder(`${project.root}/hel-home`, project.project);
  await Deno.mkdir(`${cache}/npm`, { recursive: true });
  // Hard links: a copy of some 35 MB costs seconds of CPU. `npx` running an install it finds
  // only reads its files; they are read-only besides, so (but for root) a write into one fails
  // instead of changing the install the other tests use.
  const target = `${cache}/npm/_npx`;
  await run("cp", ["-al", installed, target], cache).catch(async () => {
    // Another file system: copy instead.
    await Deno.remove(target, { recursive: true }).catch(() => {});
    await run("cp", ["-R", installed, target], cache);
  });
}

/** The `_npx` folder of an npm cache holding `spec`, made once (concurrent callers race safely). */
async function installOnce(spec: string): Promise<string> {
  const done = `${STORE}/${spec.replaceAll("/", "+")}`;
  try {
    await Deno.stat(`${done}/_npx`);
    return `${done}/_npx`;
  } catch {
    // Not installed yet.
  }
  await Deno.mkdir(STORE, { recursive: true });
  const fresh = await Deno.makeTempDir({ dir: STORE, prefix: ".fresh-" });
  try {
    await run("npm", ["exec", "--yes", `--package=${spec}`, "--", "true"], fresh, {
      npm_config_cache: fresh,
    });
    await run("find", [fresh, "-type", "f", "-exec", "chmod", "a-w", "{}", "+"], fresh);
    // The first to finish names it; a concurrent one finds the name taken and keeps that one.
    await Deno.rename(fresh, done).catch(() => {});
  } finally {
    await Deno.remove(fresh, { recursive: true }).catch(() => {});
  }
  return `${done}/_npx`;
}

async function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<void> {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    env,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
}
