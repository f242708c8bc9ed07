import assert from "node:assert/strict";
import { globTool } from "./glob.ts";
import { searchWorkspace } from "./testing.ts";
import { call } from "../testing.ts";

const FILES = {
  "src/a.ts": "a",
  "src/b.ts": "b",
  "src/sub/c.ts": "c",
  "README.md": "r",
  "sub/.hel/nested.ts": "n",
  ".HEL/upper.ts": "u",
};

Deno.test("glob lists matching files sorted by path, relative to the working directory", async () => {
  await using t = await searchWorkspace(FILES);
  const tool = globTool(t.deps);
  assert.deepEqual(await call(tool, { pattern: "*.ts" }), {
    ok: true,
    text: "src/a.ts\nsrc/b.ts\nsrc/sub/c.ts",
  });
  assert.deepEqual(await call(tool, { pattern: "*.ts", path: "src/sub" }), {
    ok: true,
    text: "src/sub/c.ts",
  });
  assert.deepEqual(await call(tool, { pattern: "*.md", path: t.project }), {
    ok: true,
    text: "README.md",
  });
  assert.deepEqual(await call(tool, { pattern: "*.rs" }), { ok: true, text: "No matches found." });
});

Deno.test("glob skips hidden folders from a parent, lists them when path names them, and says so", async () => {
  await using t = await searchWorkspace({ ".github/workflows/ci.yml": "ci" });
  const tool = globTool(t.deps);
  assert.deepEqual(await call(tool, { pattern: "*.yml" }), { ok: true, text: "No matches found." });
  assert.deepEqual(await call(tool, { pattern: "*.yml", path: ".github" }), {
    ok: true,
    text: ".github/workflows/ci.yml",
  });
  assert.match(tool.description, /hidden files and folders .* unless `path` names them/);
});

Deno.test("glob never lists .hel, in any letter case or depth, and follows no links", async () => {
  await using t = await searchWorkspace(FILES);
  await Deno.symlink(t.outside, `${t.project}/out`);
  await Deno.symlink(".hel", `${t.project}/hel-link`);
  const tool = globTool(t.deps);
  for (const pattern of ["*", "**", ".hel/**", "**/.hel/*", "*secret*", "*.txt", "**/*"]) {
    const result = await call(tool, { pattern });
    assert.equal(result.ok, true);
    assert.doesNotMatch(result.text, /\.hel|secret|outside|upper|nested/i, pattern);
  }
  for (const path of [".hel", "hel-link", "out", "../outside"]) {
    const result = await call(tool, { pattern: "*", path });
    assert.equal(result.ok, false, path);
    assert.match(result.text, /refused because/);
  }
});

Deno.test("glob stops at 100 entries and at 10,000 bytes with a truncation notice", async () => {
  const many: Record<string, string> = {};
  for (let i = 0; i < 150; i++) many[`many/f${String(i).padStart(3, "0")}.txt`] = "";
  const long: Record<string, string> = {};
  for (let i = 0; i < 60; i++) long[`long/${String(i).padStart(2, "0")}${"n".repeat(200)}`] = "";
  await using t = await searchWorkspace({ ...many, ...long });
  const tool = globTool(t.deps);
  const counted = await call(tool, { pattern: "*.txt" });
  const lines = counted.text.split("\n");
  assert.equal(lines.slice(0, 100).join("\n"), Object.keys(many).slice(0, 100).join("\n"));
  assert.equal(
    counted.text.slice(lines.slice(0, 100).join("\n").length),
    "\n[Results truncated. Narrow the path or pattern.]\n",
  );
  const sized = await call(tool, { pattern: "*nnn*" });
  assert.ok(sized.text.endsWith("\n[Results truncated. Narrow the path or pattern.]\n"));
  assert.ok(new TextEncoder().encode(sized.text).length <= 10_000);
  assert.ok(new TextEncoder().encode(sized.text).length > 9_000);
});

Deno.test("glob checks its arguments and its path", async () => {
  await using t = await searchWorkspace(FILES);
  const tool = globTool(t.deps);
  const cases: [Record<string, unknown>, string][] = [
    [{}, "pattern is required but missing"],
    [{ pattern: "" }, "pattern must be a non-empty string"],
    [{ pattern: "*", path: "" }, "path must be a non-empty string"],
    [{ pattern: "*", path: "README.md" }, "glob path must be a directory: README.md is a file"],
    [{ pattern: "*", path: "nope" }, "nope: no such file or directory"],
  ];
  for (const [args, text] of cases) assert.deepEqual(await call(tool, args), { ok: false, text });
});

Deno.test("glob without ripgrep names the package to install", async () => {
  await using t = await searchWorkspace(FILES, "/nonexistent-bin");
  const result = await call(globTool(t.deps), { pattern: "*" });
  assert.equal(result.ok, false);
  assert.match(result.text, /^ripgrep \(rg\) is not installed/);
  assert.match(result.text, /install the ripgrep package \(apt install ripgrep/);
});
