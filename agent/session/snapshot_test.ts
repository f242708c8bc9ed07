/** Unit tests of snapshot validation and the atomic save. */
import assert from "node:assert/strict";
import {
  conversationProblem,
  loadSnapshot,
  saveSnapshot,
  type Snapshot,
  SnapshotError,
  snapshotPath,
} from "./snapshot.ts";
import type { ChatMessage } from "../../core/types.ts";

const ID = "0b7d3a1e-5c1f-4e0a-9a51-3c1c2f0d9e11";

const call = (id: string) => ({
  id,
  type: "function" as const,
  function: { name: "read_file", arguments: "{}" },
});

const good: ChatMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "hi" },
  { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
  { role: "tool", tool_call_id: "a", content: "A" },
  { role: "tool", tool_call_id: "b", content: "B" },
  { role: "assistant", content: "done", reasoning_content: "kept" },
];

Deno.test("conversation checks: roles, results answering calls, a completed answer at the end", () => {
  assert.equal(conversationProblem(good), undefined);
  const cases: [unknown[], RegExp][] = [
    [[...good.slice(1, 2), good[0]!, good[5]!], /system message may only come first/],
    [[good[1]!, { role: "tool", tool_call_id: "zz", content: "x" }, good[5]!], /no matching call/],
    [good.slice(0, 4), /missing results/],
    [[...good.slice(0, 4), { role: "user", content: "x" }, good[5]!], /missing results/],
    [good.slice(0, 2), /end with a completed assistant answer/],
    [[good[1]!, { role: "wizard", content: "x" }], /unknown role/],
    [[good[1]!, { role: "assistant", content: null, tool_calls: [call("a"), call("a")] }], /twice/],
    [[good[1]!, { role: "assistant", content: 5 }], /content must be text or null/],
    ["not a list" as unknown as unknown[], /must be a list/],
  ];
  // Servers that number calls afresh in each response (call_0, call_1, ...) reuse ids.
  const reused = [good[1]!, good[2]!, good[3]!, good[4]!, good[2]!, good[3]!, good[4]!, good[5]!];
  assert.equal(conversationProblem(reused), undefined);
  for (const [messages, pattern] of cases) {
    assert.match(conversationProblem(messages) ?? "(none)", pattern, JSON.stringify(messages));
  }
});

function snapshot(project: string, messages = good): Snapshot {
  return {
    schema_version: 1,
    session_id: ID,
    project,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:01.000Z",
    messages,
    retained_messages: 0,
    plugins: { skills: { version: 1 } },
  };
}

Deno.test("save is atomic with mode 0600 and leaves no temporary file; load validates", async () => {
  const dir = await Deno.makeTempDir();
  await saveSnapshot(dir, snapshot("/p"));
  assert.equal((await Deno.stat(snapshotPath(dir))).mode! & 0o777, 0o600);
  const names = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  assert.deepEqual(names, ["snapshot.json"]);
  const loaded = await loadSnapshot(dir, ID, "/p");
  assert.deepEqual(loaded.messages, good);
  assert.deepEqual(loaded.plugins, { skills: { version: 1 } });
  // Another project or session id does not match.
  await assert.rejects(() => loadSnapshot(dir, ID, "/other"), SnapshotError);
  await assert.rejects(() => loadSnapshot(dir, ID, "/other"), /saved for the project at "\/p"/);
  await assert.rejects(() => loadSnapshot(dir, crypto.randomUUID(), "/p"), /session_id/);
  // An invalid conversation is never written; the previous file stays.
  const before = await Deno.readTextFile(snapshotPath(dir));
  await assert.rejects(() => saveSnapshot(dir, snapshot("/p", good.slice(0, 3))), /missing/);
  assert.equal(await Deno.readTextFile(snapshotPath(dir)), before);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("load refuses damaged files without touching them", async () => {
  const dir = await Deno.makeTempDir();
  const damaged: [string, RegExp][] = [
    ['{"schema_version": 1, "messages": [', /not valid JSON/],
    [JSON.stringify({ ...snapshot("/p"), schema_version: 7 }), /unsupported schema_version 7/],
    [JSON.stringify({ ...snapshot("/p"), messages: good.slice(0, 4) }), /missing results/],
    [JSON.stringify({ ...snapshot("/p"), retained_messages: -1 }), /retained_messages/],
    [JSON.stringify({ ...snapshot("/p"), retained_messages: 3 }), /retained_messages is 3/],
    [JSON.stringify([1, 2]), /not a JSON object/],
  ];
  for (const [text, pattern] of damaged) {
    await Deno.writeTextFile(snapshotPath(dir), text);
    await assert.rejects(() => loadSnapshot(dir, ID, "/p"), pattern);
    assert.equal(await Deno.readTextFile(snapshotPath(dir)), text);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a FIFO or symlink in place of snapshot.json is refused, not read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = new Deno.Command("mkfifo", { args: [snapshotPath(dir)] }).outputSync();
    assert.equal(fifo.code, 0);
    await assert.rejects(
      loadSnapshot(dir, crypto.randomUUID(), "/p"),
      /snapshot\.json is not a regular file/,
    );
    await Deno.remove(snapshotPath(dir));
    await Deno.symlink("/etc/hostname", snapshotPath(dir));
    await assert.rejects(loadSnapshot(dir, crypto.randomUUID(), "/p"), /not a regular file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("save refuses a snapshot.json that is a link and leaves what it points to", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.writeTextFile(`${dir}/victim`, "precious\n");
    await Deno.mkdir(`${dir}/session`);
    await Deno.symlink(`${dir}/victim`, snapshotPath(`${dir}/session`));
    await assert.rejects(
      () => saveSnapshot(`${dir}/session`, snapshot("/p")),
      /refused to write .*snapshot\.json: a symbolic link was found there/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/victim`), "precious\n");
    assert.ok((await Deno.lstat(snapshotPath(`${dir}/session`))).isSymlink);
    const names = [];
    for await (const entry of Deno.readDir(`${dir}/session`)) names.push(entry.name);
    assert.deepEqual(names, ["snapshot.json"], "no temporary file is left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
