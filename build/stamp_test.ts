import assert from "node:assert/strict";
import { buildCommit, buildDate, writeStamp } from "./stamp.ts";
import { versionProblem } from "./compile.ts";
import { readStamp, STAMP_DIR } from "../cli/version.ts";

Deno.test("buildCommit: the checked-out commit, -dirty with changed tracked files", async () => {
  const dir = await Deno.makeTempDir();
  const git = (...args: string[]) =>
    new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "piped", stderr: "piped" })
      .output();
  try {
    assert.equal(await buildCommit(dir), "unknown");
    await git("init", "-q");
    await Deno.writeTextFile(`${dir}/a.txt`, "a");
    await git("add", ".");
    await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one");
    const head = new TextDecoder().decode((await git("rev-parse", "HEAD")).stdout).trim();
    assert.equal(await buildCommit(dir), head);
    await Deno.writeTextFile(`${dir}/untracked.txt`, "not part of the build's commit check");
    assert.equal(await buildCommit(dir), head);
    await Deno.writeTextFile(`${dir}/a.txt`, "changed");
    assert.equal(await buildCommit(dir), `${head}-dirty`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildDate: SOURCE_DATE_EPOCH when set, else now, in UTC to the second", () => {
  assert.equal(buildDate("1767322800"), "2026-01-02T03:00:00Z");
  const now = new Date("2026-05-06T07:08:09.123Z");
  assert.equal(buildDate(undefined, now), "2026-05-06T07:08:09Z");
  assert.equal(buildDate("yesterday", now), "2026-05-06T07:08:09Z");
});

Deno.test("writeStamp: one file per build, read back as the binary reads it, removed after", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = new URL(`file://${root}/${STAMP_DIR}/`);
    const first = await writeStamp(root, { commit: "one", buildDate: "2026-01-01T00:00:00Z" });
    assert.deepEqual(await readStamp(dir), first.stamp);
    {
      await using second = await writeStamp(root, { commit: "two", buildDate: "x" });
      assert.notEqual(second.path, first.path);
    }
    // A build that ends leaves the other's stamp in place.
    assert.deepEqual(await readStamp(dir), first.stamp);
    await first[Symbol.asyncDispose]();
    assert.equal(await Deno.stat(`${root}/${STAMP_DIR}`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("versionProblem: a built binary must report this version, compiled, with the stamp", () => {
  const request = {
    version: "1.2.3",
    stamp: { path: "/x", stamp: { commit: "abc", buildDate: "2026-01-01T00:00:00Z" } },
  };
  const report = (fields: Record<string, unknown>) =>
    JSON.stringify({ version: "1.2.3", compiled: true, commit: "abc", ...fields });
  assert.equal(versionProblem(report({}), request), undefined);
  assert.equal(versionProblem("1.2.3", request), "not a JSON report");
  assert.equal(versionProblem(report({ version: "1.2.4" }), request), "version is not 1.2.3");
  assert.match(versionProblem(report({ compiled: false }), request)!, /not .* compiled/);
  assert.match(versionProblem(report({ commit: "unknown" }), request)!, /stamp is missing/);
});
