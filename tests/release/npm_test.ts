/**
 * The npm packages of a release (build/npm.ts): generated from a dist folder of stand-in
 * binaries (small shell scripts labelled as stand-ins that print a version line, not hel),
 * packed with `npm pack`, installed offline from the tarballs into a temporary global prefix,
 * and run through the launcher as a user would: `hel --version`.
 */
import assert from "node:assert/strict";
import { constants } from "node:os";
import { sha256Hex } from "../../kit/trust/file_store.ts";
import { hostTarget, TARGETS } from "../../build/targets.ts";
import { REPO_ROOT, runCommand } from "../_helpers.ts";

const signals = constants.signals as Record<string, number>;
const NPM_TS = `${REPO_ROOT}/build/npm.ts`;
const version = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)).version;
const host = hostTarget();
const npmMissing = await new Deno.Command("npm", { args: ["--version"], stdout: "null" })
  .output().then((o) => !o.success, () => true);

/**
 * A dist folder as `deno task build --target all` leaves it, with stand-in binaries, in a
 * temporary folder removed when disposed.
 */
async function standInDist(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-npm-" }));
  const sums: string[] = [];
  for (const target of TARGETS) {
    const file = `hel-${target.name}${target.suffix}`;
    const script = `#!/bin/sh\n# stand-in for the hel binary (npm package test), not hel\n` +
      `echo "stand-in ${file} $*"\nexit 3\n`;
    const bytes = new TextEncoder().encode(script);
    await Deno.writeFile(`${dir}/${file}`, bytes, { mode: 0o755 });
    sums.push(`${await sha256Hex(bytes)}  ${file}\n`);
  }
  await Deno.writeTextFile(`${dir}/SHA256SUMS`, sums.join(""));
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** `build/npm.ts --dist dir ...extra`: the packages made from the dist folder `dir`. */
function npmTs(dir: string, ...extra: string[]) {
  return run(Deno.execPath(), ["run", "-A", NPM_TS, "--dist", dir, ...extra], dir);
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return runCommand(command, args, { cwd, env: { NO_COLOR: "1", ...env } });
}

/**
 * A test of the packages made from a stand-in dist folder (`dir`), as npm and Node run them:
 * skipped without npm and on Windows (the stand-ins are shell scripts).
 */
function packagesTest(name: string, fn: (dir: string) => Promise<void>) {
  Deno.test({
    name,
    ignore: npmMissing || host === undefined || host.name.startsWith("windows"),
    async fn() {
      await using dist = await standInDist();
      const made = await npmTs(dist.dir);
      assert.equal(made.code, 0, made.stderr);
      await fn(dist.dir);
    },
  });
}

Deno.test("build/npm.ts: a main package with the launcher and one package per platform", async () => {
  await using dist = await standInDist();
  const dir = dist.dir;
  const result = await npmTs(dir);
  assert.equal(result.code, 0, result.stderr);
  const folders = result.stdout.trim().split("\n");
  assert.equal(folders.at(-1), `${dir}/npm/hel`, "main package last (published last)");
  const main = JSON.parse(await Deno.readTextFile(`${dir}/npm/hel/package.json`));
  assert.equal(main.name, "@hel/hel");
  assert.equal(main.version, version);
  assert.deepEqual(main.bin, { hel: "bin/hel.mjs" });
  assert.deepEqual(Object.keys(main.optionalDependencies), [
    "@hel/hel-linux-x64",
    "@hel/hel-linux-arm64",
    "@hel/hel-macos-x64",
    "@hel/hel-macos-arm64",
    "@hel/hel-windows-x64",
  ]);
  const mac = JSON.parse(await Deno.readTextFile(`${dir}/npm/hel-macos-arm64/package.json`));
  assert.deepEqual([mac.name, mac.version, mac.os, mac.cpu], [
    "@hel/hel-macos-arm64",
    version,
    ["darwin"],
    ["arm64"],
  ]);
  const win = JSON.parse(await Deno.readTextFile(`${dir}/npm/hel-windows-x64/package.json`));
  assert.deepEqual([win.os, win.cpu, win.files], [["win32"], ["x64"], ["bin/hel.exe"]]);
  const linux = JSON.parse(await Deno.readTextFile(`${dir}/npm/hel-linux-arm64/package.json`));
  assert.deepEqual(linux.libc, ["glibc"]);
});

Deno.test("build/npm.ts --repository: every package names it (npm publish --provenance needs it)", async () => {
  await using dist = await standInDist();
  const dir = dist.dir;
  const result = await npmTs(dir, "--repository", "acme/hel");
  assert.equal(result.code, 0, result.stderr);
  for (const folder of result.stdout.trim().split("\n")) {
    const manifest = JSON.parse(await Deno.readTextFile(`${folder}/package.json`));
    assert.deepEqual(manifest.repository, {
      type: "git",
      url: "git+https://github.com/acme/hel.git",
    }, folder);
  }
  const bad = await npmTs(dir, "--repository", 'acme/hel" evil');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--repository acme\/hel" evil: not a GitHub repository owner\/name/);
});

Deno.test({
  name: "build/npm.ts from a checkout whose path has a space reads its own files",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dist = await standInDist();
    // The checkout seen through a folder named with a space (a link, so nothing is copied).
    await Deno.mkdir(`${dist.dir}/My Projects`);
    await Deno.symlink(REPO_ROOT, `${dist.dir}/My Projects/hel`);
    const result = await run(
      Deno.execPath(),
      ["run", "-A", `${dist.dir}/My Projects/hel/build/npm.ts`, "--dist", dist.dir],
      dist.dir,
    );
    assert.equal(result.code, 0, result.stderr);
    const main = JSON.parse(await Deno.readTextFile(`${dist.dir}/npm/hel/package.json`));
    assert.equal(main.version, version);
  },
});

Deno.test("build/npm.ts: a binary that does not match SHA256SUMS, or a missing one, writes nothing", async () => {
  await using dist = await standInDist();
  const dir = dist.dir;
  await Deno.writeTextFile(`${dir}/hel-macos-x64`, "#!/bin/sh\necho tampered\n");
  const bad = await npmTs(dir);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /hel-macos-x64 does not match SHA256SUMS.*nothing written/);
  await Deno.remove(`${dir}/hel-macos-x64`);
  const missing = await npmTs(dir);
  assert.match(missing.stderr, /no .*hel-macos-x64: the npm packages need all 5 platforms/);
  assert.equal(await Deno.stat(`${dir}/npm`).then(() => true, () => false), false);
});

packagesTest(
  "npm install -g from the packed tarballs (offline): hel runs the platform's binary",
  async (dir) => {
    const env = { npm_config_cache: `${dir}/npm-cache`, HOME: dir, PATH: Deno.env.get("PATH")! };
    const tarballs: string[] = [];
    for (const pkg of ["hel", `hel-${host!.name}`]) {
      const packed = await run("npm", ["pack", "--json", `${dir}/npm/${pkg}`], dir, env);
      assert.equal(packed.code, 0, packed.stderr);
      tarballs.push(`${dir}/${JSON.parse(packed.stdout)[0].filename}`);
    }
    const prefix = `${dir}/prefix`;
    const installed = await run(
      "npm",
      [
        "install",
        "--global",
        "--prefix",
        prefix,
        "--offline",
        "--no-audit",
        "--no-fund",
        ...tarballs,
      ],
      dir,
      env,
    );
    assert.equal(installed.code, 0, installed.stderr);
    // The command npm linked, run as a user would (stand-in exits 3: the code comes through).
    const hel = await run(`${prefix}/bin/hel`, ["--version", "--json"], dir, env);
    assert.equal(hel.stdout, `stand-in hel-${host!.name} --version --json\n`, hel.stderr);
    assert.equal(hel.code, 3);
  },
);

packagesTest("the launcher without its platform package says what to reinstall", async (dir) => {
  const hel = await run("node", [`${dir}/npm/hel/bin/hel.mjs`, "--version"], dir);
  assert.equal(hel.code, 1);
  assert.match(
    hel.stderr,
    new RegExp(`the package @hel/hel-${host!.name} with the binary for .* is not installed`),
  );
  assert.match(hel.stderr, /npm install -g @hel\/hel/);
});

packagesTest(
  "the launcher exits as its binary did: by the same signal, or 128+n for those Node keeps",
  async (dir) => {
    // The layout npm leaves: both packages side by side under node_modules/@hel.
    await Deno.mkdir(`${dir}/node_modules/@hel`, { recursive: true });
    await Deno.rename(`${dir}/npm/hel`, `${dir}/node_modules/@hel/hel`);
    const platform = `${dir}/node_modules/@hel/hel-${host!.name}`;
    await Deno.rename(`${dir}/npm/hel-${host!.name}`, platform);
    // A stand-in that ends by the signal it is given.
    await Deno.writeTextFile(
      `${platform}/bin/hel`,
      '#!/bin/sh\n# stand-in for the hel binary (npm launcher test), not hel\nkill -"$1" $$\n',
    );
    const launcher = `${dir}/node_modules/@hel/hel/bin/hel.mjs`;
    // SIGPIPE (hel | head): Node ignores it, so re-raising it does nothing; SIGUSR1 would
    // start Node's inspector. Both must still end the launcher with 128 + the number.
    for (const signal of ["SIGTERM", "SIGPIPE", "SIGUSR1"] as const) {
      const output = await new Deno.Command("node", {
        args: [launcher, signal.slice(3)],
        cwd: dir,
        stdout: "null",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      const status = output.signal ? 128 + signals[output.signal]! : output.code;
      assert.equal(status, 128 + signals[signal]!, `${signal}: ${stderr}`);
      assert.doesNotMatch(stderr, /inspector|debugger/i);
    }
  },
);
