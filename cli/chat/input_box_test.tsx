import assert from "node:assert/strict";
import { inkOnTerminal } from "../../tests/_ink_terminal.ts";
import { openHistory, type PromptHistory } from "./history.ts";
import { InputBox, type InputBoxProps } from "./input_box.tsx";

const COLUMNS = 60;
const ROWS = 16;
const COMMANDS = [
  { name: "help", summary: "what hel can do" },
  { name: "resume", summary: "continue a session" },
];

/**
 * The input box in Ink on a pretend terminal; `heard` lists what it told the chat, in order.
 */
async function boxOnTerminal(history: PromptHistory, props: Partial<InputBoxProps> = {}) {
  const heard: string[] = [];
  const element = (extra: Partial<InputBoxProps>) => (
    <InputBox
      history={history}
      commands={COMMANDS}
      busy={false}
      color={false}
      width={COLUMNS}
      onSubmit={(text) => heard.push(`submit ${JSON.stringify(text)}`)}
      onEscape={() => heard.push("escape")}
      onCtrlC={(hadText) => heard.push(`ctrl-c ${hadText}`)}
      onExit={() => heard.push("exit")}
      {...props}
      {...extra}
    />
  );
  const terminal = await inkOnTerminal(element({}), { columns: COLUMNS, rows: ROWS });
  return {
    ...terminal,
    heard,
    rerender: (extra: Partial<InputBoxProps>) => terminal.rerender(element(extra)),
  };
}

const ENTER = "\r";
const UP = "\x1b[A";
const SHIFT_ENTER_KITTY = "\x1b[13;2u";
const pasted = (text: string) => `\x1b[200~${text}\x1b[201~`;

async function emptyHistory(): Promise<PromptHistory> {
  return await openHistory(await Deno.makeTempDir({ prefix: "hel-input-box-" }));
}

Deno.test("a message typed over several lines is sent whole and kept in the history", async () => {
  const history = await emptyHistory();
  const box = await boxOnTerminal(history);
  await box.keys(..."one", "\n", ..."two", SHIFT_ENTER_KITTY, ..."three\\", ENTER, ..."four");
  const screen = await box.screen();
  assert.match(screen, /│ > one +│\n│ {3}two +│\n│ {3}three +│\n│ {3}four/);
  await box.keys(ENTER);
  assert.deepEqual(box.heard, ['submit "one\\ntwo\\nthree\\nfour"']);
  assert.deepEqual(history.entries(), ["one\ntwo\nthree\nfour"]);
  assert.match(await box.screen(), /│ > +│/, "the box is empty again");
  await box.close();
});

Deno.test("up recalls the prompt sent in an earlier chat of the project", async () => {
  const root = await Deno.makeTempDir({ prefix: "hel-input-box-" });
  await (await openHistory(root)).add("run the tests");
  const box = await boxOnTerminal(await openHistory(root));
  await box.keys(UP);
  assert.match(await box.screen(), /│ > run the tests/);
  await box.keys(ENTER);
  assert.deepEqual(box.heard, ['submit "run the tests"']);
  await box.close();
});

Deno.test("a paste without a final newline arrives whole and is not sent by itself", async () => {
  const box = await boxOnTerminal(await emptyHistory());
  await box.keys(pasted("first\r\nsecond\r\nlast line"));
  assert.match(await box.screen(), /│ > first +│\n│ {3}second +│\n│ {3}last line/);
  assert.deepEqual(box.heard, []);
  await box.keys(ENTER);
  assert.deepEqual(box.heard, ['submit "first\\nsecond\\nlast line"']);
  await box.close();
});

Deno.test("a long paste shows as a marker and enter sends every line", async () => {
  const box = await boxOnTerminal(await emptyHistory());
  const lines = Array.from({ length: 120 }, (_, i) => `line ${i}`);
  await box.keys(...[..."fix: "], pasted(lines.join("\n")));
  const screen = await box.screen();
  assert.match(screen, /│ > fix: \[pasted 120 lines\]/);
  assert.ok(!screen.includes("line 7"));
  await box.keys(ENTER);
  assert.deepEqual(box.heard, [`submit ${JSON.stringify(`fix: ${lines.join("\n")}`)}`]);
  await box.close();
});

Deno.test("ctrl-r shows the search and the entry it found", async () => {
  const history = await emptyHistory();
  await history.add("npm test");
  await history.add("git status");
  const box = await boxOnTerminal(history);
  await box.keys("\x12", ..."npm");
  assert.match(await box.screen(), /\(reverse-i-search\)'npm': npm test/);
  await box.keys("\x1b");
  assert.match(await box.screen(), /│ > +│/);
  assert.deepEqual(box.heard, [], "esc only closed the search");
  await box.close();
});

Deno.test("ctrl-c clears the box, esc and ctrl-d on an empty box reach the chat", async () => {
  const box = await boxOnTerminal(await emptyHistory());
  await box.keys(..."draft", "\x03");
  assert.match(await box.screen(), /│ > +│/);
  await box.keys("\x03", "\x1b", "\x04");
  assert.deepEqual(box.heard, ["ctrl-c true", "ctrl-c false", "escape", "exit"]);
  await box.close();
});

Deno.test("a slash lists the commands and tab completes the one that matches", async () => {
  const box = await boxOnTerminal(await emptyHistory());
  await box.keys("/");
  const screen = await box.screen();
  assert.match(screen, /\/help +what hel can do/);
  assert.match(screen, /\/resume +continue a session/);
  await box.keys("r", "\t");
  assert.match(await box.screen(), /│ > \/resume +│/);
  await box.close();
});

Deno.test("typing goes into the box while an answer streams, and enter still sends", async () => {
  const box = await boxOnTerminal(await emptyHistory(), { busy: true });
  await box.keys(..."next");
  assert.match(await box.screen(), /enter queues your message until the answer ends/);
  await box.keys(ENTER);
  assert.deepEqual(box.heard, ['submit "next"']);
  await box.close();
});

Deno.test("keys are left alone while something else owns them", async () => {
  const box = await boxOnTerminal(await emptyHistory(), { isActive: false });
  await box.keys(..."y", ENTER, "\x03");
  assert.match(await box.screen(), /│ > +│/);
  assert.deepEqual(box.heard, []);
  box.rerender({ isActive: true });
  await box.keys("n");
  assert.match(await box.screen(), /│ > n +│/);
  await box.close();
});

Deno.test("a history that cannot be saved says so under the box, and the message still goes", async () => {
  const root = await Deno.makeTempDir({ prefix: "hel-input-box-" });
  const target = await Deno.makeTempFile();
  await Deno.mkdir(`${root}/.hel`);
  await Deno.symlink(target, `${root}/.hel/history.jsonl`);
  const box = await boxOnTerminal(await openHistory(root));
  await box.keys(..."hello", ENTER);
  assert.deepEqual(box.heard, ['submit "hello"']);
  assert.match(await box.screen(), /history not saved: refused to write/);
  assert.equal(await Deno.readTextFile(target), "");
  await box.close();
});

Deno.test("keys a terminal reports under the kitty keyboard protocol work the same", async () => {
  const box = await boxOnTerminal(await emptyHistory());
  const ctrlJ = "\x1b[106;5u";
  const escape = "\x1b[27u";
  const ctrlC = "\x1b[99;5u";
  await box.keys(..."a", ctrlJ, ..."b", ENTER, ..."c", ctrlC, escape);
  assert.deepEqual(box.heard, ['submit "a\\nb"', "ctrl-c true", "escape"]);
  await box.close();
});
