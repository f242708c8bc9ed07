/**
 * `deno run -A build/npm.ts [--dist dist] [--out dist/npm] [--name @hel/hel] [--repository
 * owner/name]`: the npm packages of a release, from the binaries `deno task build --target all`
 * wrote. `--repository` (default: `$GITHUB_REPOSITORY`) fills each package's `repository`.
 *
 * The layout is the one esbuild, Biome and Codex use: a main package with a small Node
 * launcher (`npm/hel/bin/hel.mjs`) and one package per platform holding that platform's binary,
 * listed as optional dependencies with `os`/`cpu` fields so that npm installs only the one that
 * fits. Each binary is checked against `SHA256SUMS` before it is packaged; any platform missing
 * or not matching stops the script with nothing written. Publish the platform packages first.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sha256Hex } from "../kit/trust/file_store.ts";
import { type BuildTarget, TARGETS } from "./targets.ts";

// A path, decoded (a checkout under "My Projects" is not "My%20Projects").
const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** npm's names for each platform's OS and CPU (`process.platform`, `process.arch`). */
const NPM_OS = { linux: "linux", macos: "darwin", windows: "win32" } as const;

/** The npm `os` and `cpu` of a build target. */
export function npmPlatform(target: BuildTarget): { os: string; cpu: string } {
  const [os, cpu] = target.name.split("-") as [keyof typeof NPM_OS, string];
  return { os: NPM_OS[os], cpu };
}

/**
 * The `repository` field for a GitHub repository `owner/name`, or nothing. `npm publish
 * --provenance` refuses (E422) a package whose `repository.url` does not name the repository
 * the workflow ran in, so the release passes its own.
 */
export function repositoryField(repository: string | undefined) {
  if (!repository) return {};
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) {
    throw new Error(`--repository ${repository}: not a GitHub repository owner/name`);
  }
  return { repository: { type: "git", url: `git+https://github.com/${repository}.git` } };
}

/** The manifest of the main package: the launcher, with every platform package optional. */
export function mainManifest(
  name: string,
  version: string,
  description: string,
  repository?: string,
) {
  return {
    name,
    version,
    description,
    ...repositoryField(repository),
    bin: { hel: "bin/hel.mjs" },
    files: ["bin/hel.mjs", "README.md"],
    engines: { node: ">=18" },
    optionalDependencies: Object.fromEntries(
      TARGETS.map((target) => [`${name}-${target.name}`, version]),
    ),
  };
}

/** The manifest of one platform package. */
export function platformManifest(
  name: string,
  version: string,
  target: BuildTarget,
  repository?: string,
) {
  const { os, cpu } = npmPlatform(target);
  return {
    name: `${name}-${target.name}`,
    version,
    description: `The hel binary for ${target.name} (${target.triple}); installed by ${name}.`,
    ...repositoryField(repository),
    files: [`bin/hel${target.suffix}`],
    os: [os],
    cpu: [cpu],
    // deno compile's Linux binaries need glibc; npm skips this package on musl systems.
    ...(os === "linux" ? { libc: ["glibc"] } : {}),
    preferUnplugged: true,
  };
}

/** Reads `SHA256SUMS` as file name → checksum. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = line.match(/^([0-9a-f]{64}) [ *](.+)$/);
    if (match) sums.set(match[2]!, match[1]!);
  }
  return sums;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes the packages into `out` (replaced); returns their folders, the main package last.
 * Throws with the reason when a binary is missing or does not match its checksum.
 */
export async function writePackages(
  dist: string,
  out: string,
  name: string,
  repository?: string,
): Promise<string[]> {
  repositoryField(repository); // a bad one stops the script before anything is read or written
  if (!/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name)) {
    throw new Error(`--name ${name}: not an npm package name`);
  }
  const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  const version: string = denoJson.version;
  const sums = parseSums(
    await Deno.readTextFile(`${dist}/SHA256SUMS`).catch(() => {
      throw new Error(`no ${dist}/SHA256SUMS: run deno task build --target all first`);
    }),
  );
  const binaries = new Map<BuildTarget, Uint8Array>();
  for (const target of TARGETS) {
    const file = `hel-${target.name}${target.suffix}`;
    const bytes = await Deno.readFile(`${dist}/${file}`).catch(() => {
      throw new Error(`no ${dist}/${file}: the npm packages need all ${TARGETS.length} platforms`);
    });
    const sum = await sha256Hex(bytes);
    if (sums.get(file) !== sum) {
      throw new Error(`${dist}/${file} does not match SHA256SUMS (${sums.get(file) ?? "absent"})`);
    }
    binaries.set(target, bytes);
  }
  await Deno.remove(out, { recursive: true }).catch(() => {});
  const main = `${out}/hel`;
  await Deno.mkdir(`${main}/bin`, { recursive: true });
  const description = "hel, a coding-agent harness: a model, tools, and your project";
  await Deno.writeTextFile(
    `${main}/package.json`,
    json(mainManifest(name, version, description, repository)),
  );
  await Deno.copyFile(`${ROOT}/npm/hel/bin/hel.mjs`, `${main}/bin/hel.mjs`);
  await Deno.chmod(`${main}/bin/hel.mjs`, 0o755);
  const readme = await Deno.readTextFile(`${ROOT}/npm/hel/README.md`);
  await Deno.writeTextFile(`${main}/README.md`, readme.replaceAll("@hel/hel", name));
  const written: string[] = [];
  for (const [target, bytes] of binaries) {
    const dir = `${out}/hel-${target.name}`;
    await Deno.mkdir(`${dir}/bin`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/package.json`,
      json(platformManifest(name, version, target, repository)),
    );
    await Deno.writeFile(`${dir}/bin/hel${target.suffix}`, bytes, { mode: 0o755 });
    written.push(dir);
  }
  return [...written, main];
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      dist: { type: "string", default: `${ROOT}/dist` },
      out: { type: "string" },
      name: { type: "string", default: "@hel/hel" },
      // GitHub owner/name for the packages' repository field (needed by npm --provenance).
      repository: { type: "string", default: Deno.env.get("GITHUB_REPOSITORY") || undefined },
    },
  });
  const cwd = Deno.env.get("INIT_CWD") ?? Deno.cwd();
  const dist = resolve(cwd, values.dist);
  try {
    const written = await writePackages(
      dist,
      resolve(cwd, values.out ?? `${dist}/npm`),
      values.name,
      values.repository,
    );
    console.log(written.join("\n"));
    console.error("npm: publish the platform packages first, then the main one (the last line)");
  } catch (error) {
    console.error(`npm: ${(error as Error).message}; nothing written`);
    Deno.exit(1);
  }
}
