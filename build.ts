/**
 * `deno task build [--target all|NAME,...] [--out-dir DIR]`: hel as a single binary.
 *
 * Embeds exactly the plugins `deno.json` declares (`hel.plugins`, passed to `deno compile`
 * with `--include`), compiles with the permissions hel needs, checks each artefact, and
 * prints its size and SHA-256 (also written to `DIR/SHA256SUMS`). Without `--target` it
 * builds `dist/hel` for this machine; with it, `dist/hel-<platform>[.exe]` per platform.
 *
 * The Deno runtime comes from `DENORT_BIN` (host only), the Deno cache, or a download by
 * `deno compile`; when none works the build says what is missing and writes nothing.
 * Exit codes: 0 every artefact built, 1 some failed, 2 bad arguments or deno.json.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Artefact, compileTarget } from "./build/compile.ts";
import { pluginModules } from "./build/plugins.ts";
import { denoDir, describeRuntime, findRuntime } from "./build/runtime.ts";
import { type BuildTarget, hostTarget, parseTargets } from "./build/targets.ts";
import { buildCommit, buildDate, writeStamp } from "./build/stamp.ts";

const ROOT = fileURLToPath(new URL(".", import.meta.url)).replace(/\/$/, "");
const USAGE = "usage: deno task build [--target all|linux-x64,macos-arm64,...] [--out-dir dist]";

function fail(message: string, code: number): never {
  console.error(`build: ${message}`);
  Deno.exit(code);
}

function formatSize(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: {
        target: { type: "string" },
        "out-dir": { type: "string", default: `${ROOT}/dist` },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const host = hostTarget();
  let targets: BuildTarget[];
  try {
    targets = values.target === undefined ? (host ? [host] : []) : parseTargets(values.target);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  if (targets.length === 0) {
    fail(`this machine (${Deno.build.target}) is not a platform hel is built for; use --target`, 2);
  }
  const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  let includes: string[];
  try {
    includes = await pluginModules(denoJson, ROOT);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  // `deno task` runs in the repository root; a relative --out-dir means the user's folder.
  const outDir = resolve(Deno.env.get("INIT_CWD") ?? Deno.cwd(), values["out-dir"]);
  const outDirExisted = await Deno.stat(outDir).then(() => true, () => false);
  const cacheDir = await denoDir();
  const denortBin = Deno.env.get("DENORT_BIN") || undefined;
  if (denortBin && targets.some((target) => target !== host)) {
    console.error(
      "build: DENORT_BIN applies to this machine's platform only; " +
        "other platforms use the Deno cache",
    );
  }
  await using stamp = await writeStamp(ROOT, {
    commit: await buildCommit(ROOT),
    buildDate: buildDate(),
  });
  console.error(
    `build: hel ${denoJson.version} (commit ${stamp.stamp.commit}, ${stamp.stamp.buildDate}) ` +
      `with Deno ${Deno.version.deno}; plugins:`,
  );
  for (const path of includes) console.error(`  ${path.slice(ROOT.length + 1)}`);

  const built: Artefact[] = [];
  let failures = 0;
  for (const target of targets) {
    const output = values.target === undefined
      ? `${outDir}/hel${target.suffix}`
      : `${outDir}/hel-${target.name}${target.suffix}`;
    try {
      const runtime = await findRuntime(target, host, denortBin, cacheDir);
      console.error(
        `build: ${target.name} (${target.triple}) → ${output}; ${describeRuntime(runtime)}`,
      );
      built.push(
        await compileTarget({
          root: ROOT,
          includes,
          target,
          host,
          runtime,
          output,
          version: denoJson.version,
          stamp,
        }),
      );
    } catch (error) {
      failures++;
      const message = (error as Error).message;
      console.error(`build: ${target.name} FAILED — nothing written for it.\n${message}`);
    }
  }
  if (built.length > 0) {
    console.log("artefact\tsize\tsha256\tcheck");
    for (const artefact of built) {
      console.log(
        `${artefact.path}\t${formatSize(artefact.size)} (${artefact.size} bytes)\t` +
          `${artefact.sha256}\t${artefact.check}`,
      );
    }
    const sums = built.map((a) => `${a.sha256}  ${a.path.slice(a.path.lastIndexOf("/") + 1)}\n`);
    await Deno.writeTextFile(`${outDir}/SHA256SUMS`, sums.join(""));
  }
  if (failures > 0) {
    // Nothing built: leave no empty folder behind either (remove refuses a non-empty one).
    if (!outDirExisted && built.length === 0) await Deno.remove(outDir).catch(() => {});
    console.error(`build: ${failures} of ${targets.length} platform(s) failed`);
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
