import assert from "node:assert/strict";
import { grepTool, matchLines } from "./grep.ts";
import { searchWorkspace } from "./testing.ts";
import { call } from "../testing.ts";

const FILES = {
  "src/a.ts": "const needle = 1;\nother\nneedle again\n",
  "src/b.js": "needle in js\n",
  "notes.md": "no match here\n",
  "sub/.hel/x.ts": "needle nested hel\n",
  ".HEL/y.ts": "needle upper hel\n",
};

Deno.test("grep lists path:line:text for each matching line, sorted by path", async () => {
  await using t = await searchWorkspace(FILES);
  const tool = grepTool(t.deps);
  assert.deepEqual(await call(tool, { pattern: "needle" }), {
    ok: true,
    text: "src/a.ts:1:const needle = 1;\nsrc/a.ts:3:needle again\nsrc/b.js:1:needle in js",
  });
  assert.deepEqual(await call(tool, { pattern: "need.e", include: "*.js" }), {
    ok: true,
    text: "src/b.js:1:needle in js",
  });
  assert.deepEqual(await call(tool, { pattern: "^needle", path: "src/a.ts" }), {
    ok: true,
    text: "src/a.ts:3:needle again",
  });
  assert.deepEqual(await call(tool, { pattern: "absent" }), {
    ok: true,
    text: "No matches found.",
  });
});

Deno.test("grep skips hidden folders from a parent, searches them when path names them, and says so", async () => {
  await using t = await searchWorkspace({ ".github/workflows/ci.yml": "run: needle\n" });
  const tool = grepTool(t.deps);
  // ripgrep's hidden-file rule: the description must tell the model how to reach such files.
  assert.deepEqual(await call(tool, { pattern: "needle" }), {
    ok: true,
    text: "No matches found.",
  });
  assert.deepEqual(await call(tool, { pattern: "needle", path: ".github" }), {
    ok: true,
    text: ".github/workflows/ci.yml:1:run: needle",
  });
  assert.match(tool.description, /hidden files and folders .* unless `path` names them/);
});

Deno.test("grep never searches .hel, whatever include says, and follows no links", async () => {
  await using t = await searchWorkspace(FILES);
  await Deno.symlink(".hel/secret.txt", `${t.project}/f.txt`);
  await Deno.symlink(t.outside, `${t.project}/out`);
  const tool = grepTool(t.deps);
  for (const include of [undefined, "*", ".hel/*", "**/.hel/**", "*.txt", "secret.txt"]) {
    const result = await call(tool, { pattern: "canary|needle|outside-data", include });
    assert.equal(result.ok, true);
    assert.doesNotMatch(result.text, /canary|hel|outside/i, String(include));
  }
  for (const path of [".hel", ".hel/secret.txt", "f.txt", "out", `${t.outside}/outside.txt`]) {
    const result = await call(tool, { pattern: "a", path });
    assert.equal(result.ok, false, path);
    assert.match(result.text, /refused because/);
  }
});

Deno.test("grep stops at 100 lines and 10,000 bytes with a truncation notice", async () => {
  const lines = Array.from({ length: 150 }, (_, i) => `match ${i}`).join("\n") + "\n";
  await using t = await searchWorkspace({ "many.txt": lines, "wide.txt": "w".repeat(30_000) });
  const tool = grepTool(t.deps);
  const many = await call(tool, { pattern: "match", path: "many.txt" });
  const expected = Array.from({ length: 100 }, (_, i) => `many.txt:${i + 1}:match ${i}`);
  assert.equal(
    many.text,
    expected.join("\n") + "\n[Results truncated. Narrow the path or pattern.]\n",
  );
  const wide = await call(tool, { pattern: "w", path: "wide.txt" });
  assert.ok(wide.text.startsWith("wide.txt:1:www"));
  assert.ok(wide.text.endsWith("w\n[Results truncated. Narrow the path or pattern.]\n"));
  assert.equal(new TextEncoder().encode(wide.text).length, 10_000);
});

Deno.test("grep and glob patterns that look like flags are searched for, not obeyed", async () => {
  await using t = await searchWorkspace({ "flags.txt": "use --files and -e here\n" });
  assert.deepEqual(await call(grepTool(t.deps), { pattern: "--files" }), {
    ok: true,
    text: "flags.txt:1:use --files and -e here",
  });
  assert.deepEqual(await call(grepTool(t.deps), { pattern: "-e", include: "--version" }), {
    ok: true,
    text: "No matches found.",
  });
});

Deno.test("grep reports a bad pattern and bad arguments", async () => {
  await using t = await searchWorkspace(FILES);
  const tool = grepTool(t.deps);
  const bad = await call(tool, { pattern: "(unclosed" });
  assert.equal(bad.ok, false);
  assert.match(bad.text, /^ripgrep failed \(exit 2\): regex parse error/);
  const cases: [Record<string, unknown>, string][] = [
    [{}, "pattern is required but missing"],
    [{ pattern: "a", include: "" }, "include must be a non-empty string"],
    [{ pattern: "a", include: 3 }, "include must be a string, not integer"],
    [
      { pattern: "a", glob: "*" },
      "unknown argument glob (this tool takes pattern, path, include)",
    ],
  ];
  for (const [args, text] of cases) assert.deepEqual(await call(tool, args), { ok: false, text });
});

Deno.test("grep's JSON reading keeps non-UTF-8 paths and skips cut lines", () => {
  const json = [
    '{"type":"begin","data":{}}',
    '{"type":"match","data":{"path":{"bytes":"YS9i/y50eHQ="},"lines":{"text":"hit\\r\\n"},"line_number":4}}',
    '{"type":"match","data":{"path":{"text":"c',
  ].join("\n");
  assert.deepEqual(matchLines(json), ["a/b\uFFFD.txt:4:hit"]);
});
