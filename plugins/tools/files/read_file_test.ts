import assert from "node:assert/strict";
import { MAX_CURSORS } from "./read_cursors.ts";
import { CursorStore } from "./read_cursors.ts";
import { READ_REPLY_BYTES, readFileTool } from "./read_file.ts";
import { call, testWorkspace } from "../testing.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;
const CURSOR =
  /\n\n\[Read truncated at 10,000 bytes\. Continue with read_file\(\{"cursor":"([0-9a-f-]{36})"\}\)\.\]\n$/;

async function setup(files: Record<string, string> = {}) {
  const t = await testWorkspace(files);
  const tool = readFileTool({ workspace: t.workspace, cursors: new CursorStore() });
  return Object.assign(t, { tool });
}

/** Reads a whole file by following cursors; returns the pieces. */
async function readAll(tool: ReturnType<typeof readFileTool>, args: Record<string, unknown>) {
  const pieces: string[] = [];
  let result = await call(tool, args);
  while (true) {
    assert.equal(result.ok, true, result.text);
    assert.ok(bytes(result.text) <= READ_REPLY_BYTES, `reply of ${bytes(result.text)} bytes`);
    const match = result.text.match(CURSOR);
    if (!match) {
      pieces.push(result.text);
      return pieces;
    }
    pieces.push(result.text.slice(0, match.index));
    result = await call(tool, { cursor: match[1] });
  }
}

Deno.test("read_file returns a small file whole, a line range, and an empty file", async () => {
  await using t = await setup({ "a.txt": "l1\nl2\nl3\nl4\n", "empty.txt": "" });
  assert.deepEqual(await call(t.tool, { path: "a.txt" }), { ok: true, text: "l1\nl2\nl3\nl4\n" });
  assert.deepEqual(await call(t.tool, { path: "a.txt", start_line: 2, max_lines: 2 }), {
    ok: true,
    text: "l2\nl3\n",
  });
  assert.deepEqual(await call(t.tool, { path: "a.txt", start_line: 4 }), {
    ok: true,
    text: "l4\n",
  });
  assert.deepEqual(await call(t.tool, { path: `${t.project}/a.txt`, max_lines: 1 }), {
    ok: true,
    text: "l1\n",
  });
  assert.deepEqual(await call(t.tool, { path: "empty.txt" }), { ok: true, text: "" });
});

Deno.test("read_file refuses a start_line past the end of the file", async () => {
  await using t = await setup({ "a.txt": "l1\nl2\nl3\nl4\n", "b.txt": "one\ntwo" });
  assert.deepEqual(await call(t.tool, { path: "a.txt", start_line: 5 }), {
    ok: false,
    text: "a.txt: start_line 5 is beyond the end of the file (it has 4 lines)",
  });
  assert.deepEqual(await call(t.tool, { path: "b.txt", start_line: 3 }), {
    ok: false,
    text: "b.txt: start_line 3 is beyond the end of the file (it has 2 lines)",
  });
});

Deno.test("long reads are cut at 10,000 bytes and continue with a cursor", async () => {
  const line = "0123456789".repeat(7) + "\n";
  const text = line.repeat(500); // 35,500 bytes
  await using t = await setup({ "big.txt": text });
  const pieces = await readAll(t.tool, { path: "big.txt" });
  assert.equal(pieces.length, 4);
  assert.equal(pieces.join(""), text);
  assert.equal(bytes(pieces[0]!), READ_REPLY_BYTES - 160);
});

Deno.test("a character split by the byte limit is delivered whole in the next part", async () => {
  const text = "가나다라".repeat(2_000) + "\n끝\n"; // 3-byte characters, 24,008 bytes
  await using t = await setup({ "ko.txt": text });
  const pieces = await readAll(t.tool, { path: "ko.txt" });
  assert.ok(pieces.length >= 3);
  assert.equal(pieces.join(""), text);
  assert.ok(pieces.every((piece) => !piece.includes("\uFFFD")));
});

Deno.test("max_lines still bounds a read that continues through cursors", async () => {
  const long = "x".repeat(6_000) + "\n";
  await using t = await setup({ "long.txt": long.repeat(5) });
  const pieces = await readAll(t.tool, { path: "long.txt", start_line: 2, max_lines: 3 });
  assert.equal(pieces.join(""), long.repeat(3));
});

Deno.test("cursor errors: combined arguments, unknown, changed file, other file", async () => {
  await using t = await setup({ "big.txt": "y".repeat(30_000), "other.txt": "o" });
  const first = await call(t.tool, { path: "big.txt" });
  const cursor = first.text.match(CURSOR)![1]!;
  assert.deepEqual(await call(t.tool, { cursor, start_line: 2 }), {
    ok: false,
    text: "cursor cannot be combined with start_line or max_lines; send the cursor alone",
  });
  assert.deepEqual(await call(t.tool, { cursor: "nope" }), {
    ok: false,
    text: "unknown or expired cursor; start a new read with path (and start_line)",
  });
  assert.deepEqual(await call(t.tool, { cursor, path: "other.txt" }), {
    ok: false,
    text: "cursor belongs to a different file than other.txt; leave out path or fix it",
  });
  assert.equal((await call(t.tool, { cursor, path: "big.txt" })).ok, true);
  await t.write("big.txt", "z".repeat(30_001));
  assert.deepEqual(await call(t.tool, { cursor }), {
    ok: false,
    text: "big.txt: the file changed since the cursor was created; start a new read",
  });
});

Deno.test(`at most ${MAX_CURSORS} cursors are kept; the oldest expires`, async () => {
  await using t = await setup({ "big.txt": "w".repeat(20_000) });
  const ids: string[] = [];
  for (let i = 0; i <= MAX_CURSORS; i++) {
    ids.push((await call(t.tool, { path: "big.txt" })).text.match(CURSOR)![1]!);
  }
  assert.match((await call(t.tool, { cursor: ids[0] })).text, /unknown or expired cursor/);
  assert.equal((await call(t.tool, { cursor: ids[1] })).ok, true);
});

Deno.test("read_file refuses folders, pipes, binary files and bad arguments", async () => {
  await using t = await setup({ "dir/x.txt": "x" });
  await t.write("bin.dat", new Uint8Array([0x61, 0xff, 0xfe, 0x62]));
  const fifo = new Deno.Command("mkfifo", { args: [`${t.project}/pipe`] }).outputSync();
  assert.equal(fifo.success, true);
  const cases: [Record<string, unknown>, string][] = [
    [{ path: "dir" }, "dir is a directory, not a regular file; use glob to list its files"],
    [
      { path: "pipe" },
      "pipe is not a regular file (a device, pipe or socket); read_file reads files only",
    ],
    [
      { path: "bin.dat" },
      "bin.dat is not valid UTF-8 text (near bytes 0-4); it may be a binary file, which " +
      "read_file cannot show",
    ],
    [{}, "path is required but missing (or send a cursor to continue a read)"],
    [{ path: 7 }, "path must be a string, not integer"],
    [{ path: "dir/x.txt", start_line: 0 }, "start_line must be at least 1, not 0"],
    [{ path: "dir/x.txt", max_lines: 1.5 }, "max_lines must be an integer, not number"],
    [{ cursor: 3 }, "cursor must be a string, not integer"],
    [
      { path: "dir/x.txt", line: 1 },
      "unknown argument line (this tool takes path, start_line, max_lines, cursor)",
    ],
    [{ path: "missing.txt" }, "missing.txt: no such file or directory"],
  ];
  for (const [args, text] of cases) {
    assert.deepEqual(await call(t.tool, args), { ok: false, text }, JSON.stringify(args));
  }
});

Deno.test("read_file reads this session's spill files but not .hel or another session's", async () => {
  await using t = await setup();
  await t.write(`${t.workspace.spillDir}/s.txt`, "spilled result\n");
  await t.write(`${t.otherSpillDir}/s.txt`, "other session\n");
  assert.deepEqual(await call(t.tool, { path: `${t.workspace.spillDir}/s.txt` }), {
    ok: true,
    text: "spilled result\n",
  });
  for (const path of [`${t.otherSpillDir}/s.txt`, ".hel/secret.txt", ".HEL/secret.txt"]) {
    const result = await call(t.tool, { path });
    assert.equal(result.ok, false, path);
    assert.match(result.text, /protected \.hel folder.*only the current session's spill files/);
    assert.ok(!result.text.includes("canary-secret"));
  }
});

Deno.test("a start_line search pauses after its byte budget and a cursor goes on with it", async () => {
  const text = `${"x".repeat(3000)}\n${"y".repeat(3000)}\nline three\nline four\n`;
  await using t = await setup({ "long.txt": text });
  const tool = readFileTool({
    workspace: t.workspace,
    cursors: new CursorStore(),
    scanBudget: 2048,
  });
  const first = await call(tool, { path: "long.txt", start_line: 3, max_lines: 1 });
  assert.equal(first.ok, true);
  const paused =
    /^\[read_file looked for line 3 of long\.txt and paused after 0 line breaks, at byte 2,048 of 6,023: one call scans at most 2,048 bytes\. Continue with read_file\(\{"cursor":"([0-9a-f-]{36})"\}\), or reach a far line at once with grep, or with sed -n '3,\+50p' long\.txt in bash\.\]\n$/;
  const cursor = first.text.match(paused)?.[1];
  assert.ok(cursor, first.text);
  const second = await call(tool, { cursor });
  const again = second.text.match(
    /after 1 line breaks, at byte 4,096 of 6,023.*"cursor":"([0-9a-f-]{36})"/,
  );
  assert.ok(again, second.text);
  assert.deepEqual(await call(tool, { cursor: again[1] }), { ok: true, text: "line three\n" });
});

Deno.test("a cancelled call (Ctrl-C) stops the start_line search", async () => {
  await using t = await setup({ "a.txt": "l1\nl2\n" });
  const controller = new AbortController();
  controller.abort();
  const result = await t.tool.run({ path: "a.txt", start_line: 2 }, {
    callId: "call_test",
    signal: controller.signal,
  });
  assert.deepEqual(result, { ok: false, text: "the read was cancelled" });
});
