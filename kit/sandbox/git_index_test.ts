import assert from "node:assert/strict";
import { INDEX_MAX_BYTES, parseGitlinks, submodulePaths } from "./git_index.ts";
import { git, testWorkspace } from "../../plugins/tools/testing.ts";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";

/** A repository whose index holds a file, three gitlinks and a path longer than 4095 bytes. */
async function repository(root: string, objectFormat: "sha1" | "sha256"): Promise<string> {
  const repo = `${root}/${objectFormat}`;
  await git(root, "init", "-q", `--object-format=${objectFormat}`, repo);
  await Deno.writeTextFile(`${repo}/file.txt`, "text\n");
  await git(repo, "add", "file.txt");
  const commit = objectFormat === "sha1" ? COMMIT : COMMIT + COMMIT.slice(0, 24);
  const blob = (await git(repo, "hash-object", "-w", "file.txt")).trim();
  const long = `${"d".repeat(200)}/`.repeat(21) + "leaf";
  for (const entry of [`160000,${commit},vendor/lib`, `160000,${commit},a b/ünï`]) {
    await git(repo, "update-index", "--add", "--cacheinfo", entry);
  }
  await git(repo, "update-index", "--add", "--cacheinfo", `100644,${blob},${long}`);
  await git(repo, "update-index", "--add", "--cacheinfo", `160000,${commit},${long}x`);
  return repo;
}

const expected = ["a b/ünï", `${"d".repeat(200)}/`.repeat(21) + "leafx", "vendor/lib"];

Deno.test("gitlinks are read from index versions 2, 3 and 4, SHA-1 and SHA-256", async () => {
  await using t = await testWorkspace();
  for (const format of ["sha1", "sha256"] as const) {
    const repo = await repository(t.root, format);
    const check = async (version: number) => {
      const bytes = await Deno.readFile(`${repo}/.git/index`);
      assert.equal(new DataView(bytes.buffer).getUint32(4), version);
      const hashBytes = format === "sha1" ? 20 : 32;
      assert.deepEqual(parseGitlinks(bytes, hashBytes), expected, `${format} v${version}`);
      assert.deepEqual(await submodulePaths(`${repo}/.git/index`), expected);
    };
    await check(2);
    await git(repo, "update-index", "--index-version", "4");
    await check(4);
    // An entry with extended flags (intent to add) makes git write version 3 when asked for 2.
    await git(repo, "update-index", "--index-version", "2");
    await Deno.writeTextFile(`${repo}/later.txt`, "later\n");
    await git(repo, "add", "--intent-to-add", "later.txt");
    await check(3);
    await git(repo, "update-index", "--index-version", "4");
    await check(4);
  }
});

Deno.test("an index that cannot be parsed, or none at all, yields no gitlinks", async () => {
  await using t = await testWorkspace();
  const repo = await repository(t.root, "sha1");
  const bytes = await Deno.readFile(`${repo}/.git/index`);
  assert.equal(parseGitlinks(bytes, 32), undefined, "the wrong object format is noticed");
  assert.equal(parseGitlinks(bytes.subarray(0, 200), 20), undefined);
  assert.equal(parseGitlinks(new TextEncoder().encode("not an index at all"), 20), undefined);
  await t.write("garbage", "DIRC\0\0\0\x09\0\0\0\x01");
  assert.deepEqual(await submodulePaths(`${t.project}/garbage`), []);
  assert.deepEqual(await submodulePaths(`${t.project}/missing`), []);
});

Deno.test("an index over the size limit is not read (a command could make one of gigabytes)", async () => {
  await using t = await testWorkspace();
  const repo = await repository(t.root, "sha1");
  await Deno.copyFile(`${repo}/.git/index`, `${t.project}/index`);
  assert.deepEqual(await submodulePaths(`${t.project}/index`), expected);
  await Deno.truncate(`${t.project}/index`, INDEX_MAX_BYTES + 1); // sparse: no disk used
  assert.deepEqual(await submodulePaths(`${t.project}/index`), []);
});
