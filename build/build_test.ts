import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { runCommand } from "../tests/_helpers.ts";
import { compileArgs } from "./compile.ts";
import { writeStamp } from "./stamp.ts";
import { pluginModules } from "./plugins.ts";
import { cachedRuntimePath, findRuntime, missingRuntimeMessage } from "./runtime.ts";
import { hasExecutableHeader, hostTarget, parseTargets, TARGETS } from "./targets.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");
const byName = (name: string) => TARGETS.find((target) => target.name === name)!;

Deno.test("--target: all, short names and triples; unknown names are named", () => {
  assert.deepEqual(parseTargets("all").map((t) => t.name), [
    "linux-x64",
    "linux-arm64",
    "macos-x64",
    "macos-arm64",
    "windows-x64",
  ]);
  assert.deepEqual(
    parseTargets("macos-arm64, x86_64-pc-windows-msvc,macos-arm64").map((t) => t.name),
    ["macos-arm64", "windows-x64"],
  );
  assert.throws(() => parseTargets("linux-x64,beos"), /--target beos: unknown platform.*linux-x64/);
});

Deno.test("executable headers: ELF, Mach-O and PE are told apart", () => {
  const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46]);
  const macho = new Uint8Array([0xcf, 0xfa, 0xed, 0xfe]);
  const pe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00]);
  assert.equal(hasExecutableHeader(byName("linux-arm64"), elf), true);
  assert.equal(hasExecutableHeader(byName("linux-arm64"), macho), false);
  assert.equal(hasExecutableHeader(byName("macos-x64"), macho), true);
  assert.equal(hasExecutableHeader(byName("windows-x64"), pe), true);
  assert.equal(hasExecutableHeader(byName("windows-x64"), elf), false);
});

Deno.test("runtime: DENORT_BIN for the host only, then the Deno cache, else a download", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const host = byName("linux-x64");
    const other = byName("macos-arm64");
    const fakeRuntime = `${dir}/denort`;
    await Deno.writeTextFile(fakeRuntime, "");
    assert.deepEqual(await findRuntime(host, host, fakeRuntime, dir), {
      kind: "env",
      path: fakeRuntime,
    });
    // DENORT_BIN is one platform's binary: another platform must not get it.
    assert.deepEqual(await findRuntime(other, host, fakeRuntime, dir), {
      kind: "download",
      cachePath: cachedRuntimePath(dir, other),
    });
    const cached = cachedRuntimePath(dir, other);
    assert.match(cached, /\/dl\/release\/v\d+\.\d+\.\d+\/denort-aarch64-apple-darwin\.zip$/);
    await Deno.mkdir(cached.slice(0, cached.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(cached, "");
    assert.deepEqual(await findRuntime(other, host, undefined, dir), {
      kind: "cache",
      path: cached,
    });
    await assert.rejects(
      findRuntime(host, host, `${dir}/missing`, dir),
      /DENORT_BIN=.*missing is not a file: point it at the denort binary/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the missing-runtime message names both ways to provide one", () => {
  const host = byName("linux-x64");
  const text = missingRuntimeMessage(host, host, "/cache/denort.zip");
  assert.match(text, /no Deno runtime for linux-x64/);
  assert.match(text, /DENORT_BIN=\/path\/to\/denort deno task build/);
  assert.match(text, /at \/cache\/denort\.zip/);
  // For another platform DENORT_BIN is no way out, so it is not offered.
  assert.doesNotMatch(missingRuntimeMessage(byName("windows-x64"), host, "/c"), /DENORT_BIN/);
});

Deno.test("plugin modules: every hel.plugins entry of deno.json, resolved to a file", async () => {
  const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  const paths = await pluginModules(denoJson, ROOT);
  assert.deepEqual(paths, denoJson.hel.plugins.map((s: string) => `${ROOT}/${s.slice(2)}`));
  await assert.rejects(
    pluginModules({ hel: { plugins: ["./plugins/tools/mod.ts", "jsr:@x/plugin"] } }, ROOT),
    /hel\.plugins\[1\] "jsr:@x\/plugin" is not a local module/,
  );
  await assert.rejects(
    pluginModules({ hel: { plugins: [["./plugins/nope.ts", {}]] } }, ROOT),
    /hel\.plugins\[0\] "\.\/plugins\/nope\.ts": no such file/,
  );
});

// Host-platform end-to-end checks of `deno task build`; only where hel is built for the host.
const host = hostTarget();

async function runBuild(env: Record<string, string>, outDir: string) {
  const childEnv: Record<string, string> = { ...Deno.env.toObject(), NO_COLOR: "1", ...env };
  delete childEnv.DENORT_BIN;
  if (env.DENORT_BIN) childEnv.DENORT_BIN = env.DENORT_BIN;
  const result = await runCommand(
    Deno.execPath(),
    ["run", "--allow-all", `${ROOT}/build.ts`, "--out-dir", outDir],
    { env: childEnv, clearEnv: true },
  );
  const written = [];
  try {
    for await (const entry of Deno.readDir(outDir)) written.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return { ...result, written };
}

Deno.test({
  name: "build without any runtime: a clear message, exit 1, nothing written",
  ignore: host === undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hel-build-" });
    try {
      // A Deno cache with everything but the runtime archives, and no way to download them.
      const realCache = JSON.parse(
        new TextDecoder().decode(
          (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout,
        ),
      ).denoDir as string;
      const cache = `${dir}/deno-dir`;
      await Deno.mkdir(cache);
      for await (const entry of Deno.readDir(realCache)) {
        if (entry.name !== "dl") {
          await Deno.symlink(`${realCache}/${entry.name}`, `${cache}/${entry.name}`);
        }
      }
      // The out folder does not exist yet: a failed build must not leave it behind, empty.
      const result = await runBuild({
        DENO_DIR: cache,
        HTTPS_PROXY: "http://127.0.0.1:9",
        https_proxy: "http://127.0.0.1:9",
      }, `${dir}/out`);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`no Deno runtime for ${host!.name}`));
      assert.match(result.stderr, /DENORT_BIN=\/path\/to\/denort deno task build/);
      assert.ok(result.stderr.includes(cachedRuntimePath(cache, host!)), result.stderr);
      assert.match(result.stderr, /nothing written/);
      assert.deepEqual(result.written, []);
      assert.ok(!await Deno.stat(`${dir}/out`).then(() => true, () => false), "no out folder");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "build refuses a DENORT_BIN that is not a runtime (the full deno CLI) and removes it",
  ignore: host === undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hel-build-" });
    try {
      const result = await runBuild({ DENORT_BIN: Deno.execPath() }, dir);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /does not behave as hel: `--version --json` printed ".*": it exited with an error/,
      );
      assert.match(result.stderr, /probably not a denort runtime/);
      assert.deepEqual(result.written, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "the compile arguments embed every plugin of deno.json with its text files",
  ignore: host === undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "hel-build-" });
    try {
      const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
      const includes = await pluginModules(denoJson, ROOT);
      await using stamp = await writeStamp(ROOT, {
        commit: "c0ffee",
        buildDate: "2026-01-02T03:04:05Z",
      });
      // Any runtime binary shows what deno compile embeds; the file is never run.
      const output = await new Deno.Command(Deno.execPath(), {
        args: compileArgs({ root: ROOT, includes, target: host!, stamp }, `${dir}/hel`),
        env: { DENORT_BIN: Deno.execPath(), NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      const decoder = new TextDecoder();
      const listing = decoder.decode(output.stdout) + decoder.decode(output.stderr);
      for (const path of includes) {
        const folder = path.slice(ROOT.length + 1, path.lastIndexOf("/"));
        assert.ok(
          listing.includes(folder.split("/").at(-1)!),
          `${folder} not embedded:\n${listing}`,
        );
      }
      // A model-facing description that only a dynamically imported plugin imports.
      const binary = await Deno.readFile(`${dir}/hel`);
      const needle = (await Deno.readTextFile(`${ROOT}/plugins/tools/files/read_file.txt`)).trim()
        .slice(0, 60);
      assert.ok(contains(binary, new TextEncoder().encode(needle)), `"${needle}" not embedded`);
      // main.ts imports the command line dynamically (after --version): it must be embedded.
      const commandLine = "Commander already printed the message";
      assert.ok(
        contains(binary, new TextEncoder().encode(commandLine)),
        "cli/main.ts not embedded",
      );
      // The stamp `hel --version` reads, at the path relative to main.ts that it reads it from.
      assert.match(listing, /\.build-stamp\/\*/);
      const stampText = new TextEncoder().encode(await Deno.readTextFile(stamp.path));
      assert.ok(contains(binary, stampText), "build stamp not embedded");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  for (let at = haystack.indexOf(first!); at !== -1; at = haystack.indexOf(first!, at + 1)) {
    let match = true;
    for (let i = 1; i < needle.length && match; i++) match = haystack[at + i] === needle[i];
    if (match) return true;
  }
  return false;
}
