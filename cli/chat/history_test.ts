import assert from "node:assert/strict";
import { UnsafePathError } from "../../kit/safe_write.ts";
import {
  HISTORY_LIMIT,
  historyPath,
  openHistory,
  parseHistory,
  searchHistory,
  STORED_ENTRY_LIMIT,
} from "./history.ts";

async function tempProject(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-history-" }));
}

Deno.test("prompts are kept in the project and found again by the next chat, newest last", async () => {
  const root = await tempProject();
  const first = await openHistory(root);
  await first.add("explain main.ts");
  await first.add("now run the tests\nand fix what fails");
  const next = await openHistory(root);
  assert.deepEqual(next.entries(), ["explain main.ts", "now run the tests\nand fix what fails"]);
  const lines = (await Deno.readTextFile(historyPath(root))).trimEnd().split("\n");
  assert.equal(lines.length, 2);
});

Deno.test("a project without a history starts empty and no file is made until a prompt", async () => {
  const root = await tempProject();
  const history = await openHistory(root);
  assert.deepEqual(history.entries(), []);
  await assert.rejects(Deno.lstat(historyPath(root)), Deno.errors.NotFound);
});

Deno.test("a prompt repeating the newest one and a blank prompt are not added", async () => {
  const root = await tempProject();
  const history = await openHistory(root);
  await history.add("ls");
  await history.add("ls");
  await history.add("   ");
  await history.add("pwd");
  await history.add("ls");
  assert.deepEqual(history.entries(), ["ls", "pwd", "ls"]);
  assert.deepEqual((await openHistory(root)).entries(), ["ls", "pwd", "ls"]);
});

Deno.test("the history keeps the newest thousand prompts in memory and in the file", async () => {
  const root = await tempProject();
  const old = Array.from({ length: HISTORY_LIMIT }, (_, i) => JSON.stringify({ text: `old ${i}` }));
  await Deno.mkdir(`${root}/.hel`);
  await Deno.writeTextFile(historyPath(root), old.join("\n") + "\n");
  const history = await openHistory(root);
  await history.add("newest");
  await history.add("newer still");
  assert.equal(history.entries().length, HISTORY_LIMIT);
  assert.equal(history.entries()[0], "old 2");
  assert.equal(history.entries().at(-1), "newer still");
  const stored = parseHistory(await Deno.readTextFile(historyPath(root)));
  assert.equal(stored.length, HISTORY_LIMIT);
  assert.equal(stored[0], "old 2");
  assert.equal(stored.at(-1), "newer still");
});

Deno.test("a trimmed history keeps what another chat in the project added meanwhile", async () => {
  const root = await tempProject();
  const old = Array.from({ length: HISTORY_LIMIT }, (_, i) => JSON.stringify({ text: `old ${i}` }));
  await Deno.mkdir(`${root}/.hel`);
  await Deno.writeTextFile(historyPath(root), old.join("\n") + "\n");
  const mine = await openHistory(root);
  const other = await openHistory(root);
  await other.add("from the other chat");
  await mine.add("from this chat");
  const stored = parseHistory(await Deno.readTextFile(historyPath(root)));
  assert.deepEqual(stored.slice(-2), ["from the other chat", "from this chat"]);
  assert.equal(stored.length, HISTORY_LIMIT);
});

Deno.test("a broken line in the history file is skipped and the rest is kept", async () => {
  const root = await tempProject();
  await Deno.mkdir(`${root}/.hel`);
  await Deno.writeTextFile(
    historyPath(root),
    '{"text":"first"}\n{"text": "torn\nnot json at all\n42\n{"other":1}\n{"text":"second"}\n',
  );
  const history = await openHistory(root);
  assert.deepEqual(history.entries(), ["first", "second"]);
  await history.add("third");
  assert.deepEqual((await openHistory(root)).entries(), ["first", "second", "third"]);
});

Deno.test("a link planted at the history file is neither read nor written through", async () => {
  const root = await tempProject();
  const outside = await tempProject();
  const target = `${outside}/bashrc`;
  await Deno.writeTextFile(target, '{"text":"planted prompt"}\n');
  await Deno.mkdir(`${root}/.hel`);
  await Deno.symlink(target, historyPath(root));
  const history = await openHistory(root);
  assert.deepEqual(history.entries(), []);
  await assert.rejects(history.add("rm -rf"), UnsafePathError);
  assert.equal(await Deno.readTextFile(target), '{"text":"planted prompt"}\n');
  assert.deepEqual(history.entries(), ["rm -rf"], "the prompt is still there for this chat");
});

Deno.test("a link planted at the .hel folder is not written through", async () => {
  const root = await tempProject();
  const outside = await tempProject();
  await Deno.symlink(outside, `${root}/.hel`);
  const history = await openHistory(root);
  await assert.rejects(history.add("hello"), UnsafePathError);
  assert.deepEqual([...Deno.readDirSync(outside)], []);
});

Deno.test("a very long prompt is kept for this chat but not written to the file", async () => {
  const root = await tempProject();
  const history = await openHistory(root);
  const huge = "x".repeat(STORED_ENTRY_LIMIT + 1);
  await history.add("short");
  await history.add(huge);
  assert.equal(history.entries().at(-1), huge);
  assert.deepEqual((await openHistory(root)).entries(), ["short"]);
});

Deno.test("reverse search finds the newest match, then older ones, ignoring case", () => {
  const entries = ["npm test", "git status", "NPM run build", "ls", "npm install"];
  assert.equal(searchHistory(entries, "npm"), 4);
  assert.equal(searchHistory(entries, "npm", 4), 2);
  assert.equal(searchHistory(entries, "npm", 2), 0);
  assert.equal(searchHistory(entries, "npm", 0), undefined);
  assert.equal(searchHistory(entries, "cargo"), undefined);
  assert.equal(searchHistory(entries, ""), undefined);
});
