/**
 * Checks of the single binary `deno task build` makes: it starts, it carries the same plugins
 * as a run from source, and it does hel's main job (the offline demo).
 *
 * The binary is `HEL_BIN` when set; otherwise it is built here into a temporary folder when a
 * Deno runtime is at hand (`DENORT_BIN`, or the runtime archive in the Deno cache). Without
 * either, these tests are skipped with the reason printed.
 */
import assert from "node:assert/strict";
import { cachedRuntimePath, denoDir } from "../../build/runtime.ts";
import { hostTarget } from "../../build/targets.ts";
import { MAIN_TS, REPO_ROOT, runCommand, runHel, tempProject } from "../_helpers.ts";

interface Binary {
  path?: string;
  /** Why the checks cannot run (skip). */
  skip?: string;
  /** The build was possible but failed (the checks fail). */
  error?: string;
}

async function prepareBinary(): Promise<Binary> {
  const given = Deno.env.get("HEL_BIN");
  if (given) return { path: given };
  const host = hostTarget();
  if (!host) return { skip: `hel is not built for this platform (${Deno.build.target})` };
  const cached = cachedRuntimePath(await denoDir(), host);
  const haveCache = await Deno.stat(cached).then(() => true, () => false);
  if (!Deno.env.get("DENORT_BIN") && !haveCache) {
    return {
      skip: "no Deno runtime to build the binary with: set DENORT_BIN to the denort binary of " +
        `Deno ${Deno.version.deno}, place ${cached}, or set HEL_BIN to a built hel`,
    };
  }
  const outDir = await Deno.makeTempDir({ prefix: "hel-binary-" });
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${REPO_ROOT}/build.ts`, "--out-dir", outDir],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    return { error: `deno task build failed:\n${new TextDecoder().decode(output.stderr)}` };
  }
  return { path: `${outDir}/hel${host.suffix}` };
}

const binary = await prepareBinary();
if (binary.skip) console.log(`binary checks skipped: ${binary.skip}`);

function binaryTest(name: string, fn: (path: string) => Promise<void>) {
  Deno.test({
    name,
    ignore: binary.skip !== undefined,
    async fn() {
      assert.equal(binary.error, undefined, binary.error);
      await fn(binary.path!);
    },
  });
}

function runBinary(path: string, args: string[], cwd: string) {
  return runCommand(path, args, {
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HEL_HOME: `${cwd}/../hel-home`,
      HEL_API_KEY: "test-key",
      NO_COLOR: "1",
    },
  });
}

binaryTest(
  "--version: the version of deno.json, the build's commit and date, compiled",
  async (path) => {
    await using project = await tempProject();
    const denoJson = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));
    const result = await runBinary(path, ["--version"], project.project);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^hel ${denoJson.version}\n`));
    assert.match(result.stdout, /^mode {4}compiled binary /m);
    const json = await runBinary(path, ["--version", "--json"], project.project);
    const report = JSON.parse(json.stdout);
    assert.equal(report.version, denoJson.version);
    assert.equal(report.compiled, true);
    assert.match(report.commit, /^[0-9a-f]{40}(-dirty)?$/);
    assert.match(report.buildDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  },
);

binaryTest("plugins list is the same as from source", async (path) => {
  await using project = await tempProject();
  const fromSource = await runHel(["plugins", "list"], { cwd: project.project });
  const fromBinary = await runBinary(path, ["plugins", "list"], project.project);
  assert.equal(fromSource.code, 0, fromSource.stderr);
  assert.equal(fromBinary.code, 0, fromBinary.stderr);
  assert.match(fromBinary.stdout, /^tools {2}/m);
  assert.equal(fromBinary.stdout, fromSource.stdout, `source: ${MAIN_TS}`);
});

binaryTest("the offline demo runs on the binary", async (path) => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${REPO_ROOT}/fixtures/demo.ts`],
    env: { HEL_BIN: path, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.ok(stdout.includes(`$ ${path} --access auto`), stdout);
  assert.match(stdout, /greeting\.txt now:\nHello, world!/);
});
