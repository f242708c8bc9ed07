/**
 * install.sh against a local release server with stand-in assets (tests/release/_install.ts),
 * run under dash: success, a pin, wget, a mismatch, an unsupported platform, failed downloads.
 */
import assert from "node:assert/strict";
import {
  install,
  INSTALL_SH,
  installed,
  leftovers,
  release,
  runInstalled,
  setup,
  toolsWithoutCurl,
} from "./_install.ts";

Deno.test("install.sh: the latest release for this platform into ~/.local/bin, with a PATH hint", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  const result = await install(s);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await runInstalled(installed(s)), "hel 0.2.0 hel-linux-x64 (stand-in)\n");
  assert.equal((await Deno.stat(installed(s))).mode! & 0o777, 0o755);
  assert.deepEqual(s.requests, ["/latest/download/hel-linux-x64", "/latest/download/SHA256SUMS"]);
  assert.match(result.stdout, /checksum ok/);
  assert.match(result.stdout, /installed .*\/home\/\.local\/bin\/hel: hel 0\.2\.0/);
  assert.match(
    result.stdout,
    /is not on your PATH.*\n.*export PATH="[^"]*\/home\/\.local\/bin:\$PATH"/,
  );
  assert.deepEqual(await leftovers(s), []);
});

Deno.test("install.sh: a pinned version, the arm64 binary, HEL_INSTALL_DIR already on PATH", async () => {
  await using s = await setup({ latest: await release("0.2.0"), "v0.1.0": await release("0.1.0") });
  const dir = `${s.root}/home/bin`;
  const result = await install(s, ["0.1.0"], {
    HEL_INSTALL_ARCH: "aarch64",
    HEL_INSTALL_DIR: dir,
    PATH: `${dir}:/usr/bin:/bin`,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await runInstalled(`${dir}/hel`), "hel 0.1.0 hel-linux-arm64 (stand-in)\n");
  assert.deepEqual(s.requests, ["/download/v0.1.0/hel-linux-arm64", "/download/v0.1.0/SHA256SUMS"]);
  assert.doesNotMatch(result.stdout, /not on your PATH/);
});

Deno.test("install.sh: wget and shasum when curl and sha256sum are missing", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  const result = await install(s, [], { PATH: await toolsWithoutCurl(s) });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await runInstalled(installed(s)), "hel 0.2.0 hel-linux-x64 (stand-in)\n");
  assert.deepEqual(s.requests, ["/latest/download/hel-linux-x64", "/latest/download/SHA256SUMS"]);
});

Deno.test("install.sh: a checksum mismatch installs nothing and keeps the hel already there", async () => {
  await using s = await setup({ latest: await release("0.2.0", { corrupt: "hel-macos-arm64" }) });
  const first = await install(s, ["latest"], {
    HEL_INSTALL_OS: "Darwin",
    HEL_INSTALL_ARCH: "x86_64",
  });
  assert.equal(first.code, 0, first.stderr);
  const result = await install(s, [], { HEL_INSTALL_OS: "Darwin", HEL_INSTALL_ARCH: "arm64" });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /error: checksum mismatch for hel-macos-arm64: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}\n.*nothing was installed/,
  );
  assert.equal(await runInstalled(installed(s)), "hel 0.2.0 hel-macos-x64 (stand-in)\n");
  assert.deepEqual(await leftovers(s), []);
});

Deno.test("install.sh: an unsupported platform is refused before any download", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  for (
    const [os, arch, message] of [
      ["FreeBSD", "amd64", /no hel binary for the OS 'FreeBSD'/],
      ["Linux", "riscv64", /no hel binary for the CPU 'riscv64' on linux/],
      ["MINGW64_NT-10.0", "x86_64", /does not install on Windows: .*hel-windows-x64\.exe/],
    ] as const
  ) {
    const result = await install(s, [], { HEL_INSTALL_OS: os, HEL_INSTALL_ARCH: arch });
    assert.equal(result.code, 1, `${os} ${arch}`);
    assert.match(result.stderr, message);
    assert.match(result.stderr, /nothing was installed/);
  }
  assert.deepEqual(s.requests, []);
  assert.equal(await Deno.stat(installed(s)).then(() => true, () => false), false);
});

Deno.test("install.sh: a failed download, a missing checksum or a bad tag installs nothing", async () => {
  const partial = await release("0.3.0");
  partial.set("SHA256SUMS", partial.get("SHA256SUMS")!.replace(/^.*hel-linux-x64\n/m, ""));
  await using s = await setup({ latest: await release("0.2.0"), "v0.3.0": partial });
  const missing = await install(s, ["v9.9.9"]);
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /could not download http:\/\/127\.0\.0\.1:\d+\/download\/v9\.9\.9\/hel-linux-x64/,
  );
  const unsummed = await install(s, ["v0.3.0"]);
  assert.equal(unsummed.code, 1);
  assert.match(unsummed.stderr, /SHA256SUMS of v0\.3\.0 has no checksum for hel-linux-x64/);
  const badTag = await install(s, ["v1.0.0/../../x"]);
  assert.equal(badTag.code, 1);
  assert.match(badTag.stderr, /'v1\.0\.0\/\.\.\/\.\.\/x' is not a release tag/);
  assert.equal(await Deno.stat(installed(s)).then(() => true, () => false), false);
  assert.deepEqual(await leftovers(s), []);
});

Deno.test("install.sh is POSIX sh: dash -n, and shellcheck when it is installed", async () => {
  const dash = await new Deno.Command("dash", { args: ["-n", INSTALL_SH], stderr: "piped" })
    .output();
  assert.ok(dash.success, new TextDecoder().decode(dash.stderr));
  const check = await new Deno.Command("shellcheck", {
    args: ["--shell=sh", INSTALL_SH],
    stdout: "piped",
  }).output().catch(() => undefined);
  if (check === undefined) return console.log("shellcheck not installed: skipped");
  assert.ok(check.success, new TextDecoder().decode(check.stdout));
});
