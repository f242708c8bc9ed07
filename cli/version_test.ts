import assert from "node:assert/strict";
import { divertOutput, writeOut } from "../kit/output.ts";
import { formatVersion, parseStamp, readStamp, sourceCommit, versionRequest } from "./version.ts";

Deno.test("versionRequest: one version flag, optionally --json, and nothing else", () => {
  assert.deepEqual(versionRequest(["--version"]), { json: false });
  assert.deepEqual(versionRequest(["-v"]), { json: false });
  assert.deepEqual(versionRequest(["--json", "-V"]), { json: true });
  assert.deepEqual(versionRequest(["--version", "--json"]), { json: true });
  assert.equal(versionRequest([]), undefined);
  assert.equal(versionRequest(["--json"]), undefined);
  assert.equal(versionRequest(["-v", "--version"]), undefined);
  assert.equal(versionRequest(["--version", "--json", "--json"]), undefined);
  // Left to the command line: it reports unknown flags and applies the others.
  assert.equal(versionRequest(["--model", "x", "--version"]), undefined);
  assert.equal(versionRequest(["say", "--version"]), undefined);
});

Deno.test("readStamp: the one stamp file of the folder; none, or not a stamp, is undefined", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = new URL(`file://${dir}/`);
    assert.equal(await readStamp(url), undefined);
    assert.equal(await readStamp(new URL("missing/", url)), undefined);
    await Deno.writeTextFile(
      `${dir}/a.json`,
      '{"commit":"abc","buildDate":"2026-01-02T03:04:05Z"}',
    );
    assert.deepEqual(await readStamp(url), { commit: "abc", buildDate: "2026-01-02T03:04:05Z" });
    assert.equal(parseStamp("{"), undefined);
    assert.equal(parseStamp('{"commit":1,"buildDate":"x"}'), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sourceCommit: the commit of a folder at the top of a git checkout, else unknown", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const git = (...args: string[]) =>
    new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "piped", stderr: "piped" })
      .output();
  try {
    const url = new URL(`file://${dir}/`);
    assert.equal(await sourceCommit(url), "unknown"); // not a checkout
    await git("init", "-q");
    await Deno.mkdir(`${dir}/hel`);
    await Deno.writeTextFile(`${dir}/hel/a.txt`, "a");
    await git("add", ".");
    await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one");
    const head = new TextDecoder().decode((await git("rev-parse", "HEAD")).stdout).trim();
    assert.equal(await sourceCommit(url), head);
    // hel copied into another project's repository: that commit is not hel's.
    assert.equal(await sourceCommit(new URL("hel/", url)), "unknown");
    assert.equal(await sourceCommit(new URL("https://example.com/hel/")), "unknown");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("formatVersion: one fact per line; stamp text is cut and, written, shown as text", () => {
  const info = {
    name: "hel",
    version: "1.2.3",
    commit: "abc\x1b[31m",
    buildDate: "2026-01-02T03:04:05Z",
    deno: "2.9.6",
    compiled: true,
    target: "aarch64-apple-darwin",
  } as const;
  const written: string[] = [];
  const restore = divertOutput((text) => written.push(text));
  try {
    writeOut(formatVersion(info));
    writeOut(formatVersion({ ...info, buildDate: "9".repeat(100) }));
  } finally {
    restore();
  }
  assert.equal(
    written[0],
    "hel 1.2.3\ncommit  abc\\u001b[31m\nbuilt   2026-01-02T03:04:05Z\ndeno    2.9.6\n" +
      "mode    compiled binary (aarch64-apple-darwin)\n",
  );
  assert.match(written[1]!, new RegExp(`\nbuilt   ${"9".repeat(80)}…\n`));
});
