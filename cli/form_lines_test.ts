import assert from "node:assert/strict";
import type { FormField, FormQuestion } from "../core/form.ts";
import { askFormByLines } from "./form_lines.ts";
import { parseFieldText, shownValue, startValues } from "./form_values.ts";

const colour: FormField = {
  name: "colour",
  label: "Colour",
  kind: "choice",
  required: false,
  options: [{ value: "#f00", label: "Red" }, { value: "#0f0", label: "Green" }],
  default: "#0f0",
};
const count: FormField = {
  name: "count",
  label: "Count",
  kind: "integer",
  required: true,
  hint: "1 to 9",
  default: 40,
  check: (value) => (value as number) > 9 ? "must be at most 9" : undefined,
};
const tags: FormField = {
  name: "tags",
  label: "Tags",
  kind: "choices",
  required: false,
  options: [{ value: "a", label: "Alpha" }, { value: "b", label: "Beta" }],
};
const question: FormQuestion = {
  asker: 'MCP server "notes"',
  message: "Pick\x1b[31m some\nthings",
  fields: [colour, count, tags],
};

/** Answers the prompts in order from `lines` (undefined: input ended); records what was shown. */
function terminal(lines: (string | undefined)[]) {
  let shown = "";
  const prompts: string[] = [];
  return {
    ask: (prompt: string) => {
      prompts.push(prompt);
      shown += prompt;
      return Promise.resolve(lines.length > 0 ? lines.shift() : undefined);
    },
    write: (text: string) => void (shown += text),
    shown: () => shown,
    prompts,
  };
}

Deno.test("typed text is read by the field's kind: numbers, yes or no, choices by number, value or label", () => {
  assert.deepEqual(parseFieldText(count, "7"), { value: 7 });
  assert.deepEqual(parseFieldText(count, "7.5"), { problem: "not a whole number" });
  assert.deepEqual(parseFieldText(count, "0x10"), { problem: "not a whole number" });
  assert.deepEqual(parseFieldText({ ...count, kind: "number" }, ".5"), { value: 0.5 });
  assert.deepEqual(parseFieldText({ ...count, kind: "number" }, "Infinity"), {
    problem: "not a number",
  });
  assert.deepEqual(parseFieldText({ ...count, kind: "boolean" }, "Yes"), { value: true });
  assert.deepEqual(parseFieldText({ ...count, kind: "boolean" }, "maybe"), {
    problem: "answer y or n",
  });
  assert.deepEqual(parseFieldText(colour, "2"), { value: "#0f0" });
  assert.deepEqual(parseFieldText(colour, "red"), { value: "#f00" });
  assert.deepEqual(parseFieldText(colour, "#0f0"), { value: "#0f0" });
  assert.deepEqual(parseFieldText(colour, "3"), { problem: "not one of the choices" });
  assert.deepEqual(parseFieldText(tags, "2, alpha, 2"), { value: ["b", "a"] });
  assert.deepEqual(parseFieldText(tags, "1, x"), { problem: "x is not one of the choices" });
  assert.deepEqual(parseFieldText(tags, "  "), { value: undefined });
  assert.equal(shownValue(tags, ["b", "a"]), "Beta, Alpha");
  assert.equal(shownValue(colour, undefined, "(empty)"), "(empty)");
});

Deno.test("a form starts with the defaults that fit its fields, never one its own check refuses", () => {
  assert.deepEqual(startValues(question), { colour: "#0f0" });
  const odd: FormQuestion = {
    ...question,
    fields: [{ ...colour, default: "#00f" }, { ...tags, default: ["a", "z"] }, {
      ...count,
      default: "three",
    }],
  };
  assert.deepEqual(startValues(odd), {});
});

Deno.test("on a plain terminal each field is asked, wrong values asked again, the answer read back and sent", async () => {
  const t = terminal(["", "", "12", "3", "1,2", "y"]);
  const answer = await askFormByLines(question, t.ask, t.write);
  assert.deepEqual(answer, {
    action: "accept",
    values: { colour: "#0f0", count: 3, tags: ["a", "b"] },
  });
  const shown = t.shown();
  assert.match(
    shown,
    /MCP server "notes" asks \(your answer goes to the server, not to the model\)/,
  );
  assert.match(shown, /Pick\\u001b\[31m some\n {2}things/, "the server's text is escaped");
  assert.ok(!shown.includes("\x1b"), "no escape sequence reaches the terminal");
  assert.match(shown, /1\/3 Colour\n {2}1\. Red\n {2}2\. Green\n {2}\(a number, or the name\)/);
  assert.match(shown, /2\/3 Count, required \(1 to 9\)/);
  assert.match(shown, /required; try again/);
  assert.match(shown, /must be at most 9; try again/);
  assert.match(shown, /Your answer for MCP server "notes":\n {2}Colour: Green\n {2}Count: 3\n/);
  assert.deepEqual(t.prompts.slice(0, 2), ["  [Green] > ", "  > "]);
});

Deno.test("a plain form can be edited, emptied, declined or cancelled, and input ending or Ctrl-C cancels", async () => {
  let t = terminal(["-", "2", "", "e", "1", "", "", "y"]);
  assert.deepEqual(await askFormByLines(question, t.ask, t.write), {
    action: "accept",
    values: { colour: "#f00", count: 2 },
  });
  assert.deepEqual(t.prompts.slice(4, 7), ["  > ", "  [2] > ", "  > "]);
  t = terminal(["!decline"]);
  assert.deepEqual(await askFormByLines(question, t.ask, t.write), { action: "decline" });
  t = terminal(["", "!cancel"]);
  assert.deepEqual(await askFormByLines(question, t.ask, t.write), { action: "cancel" });
  t = terminal(["", "4", "", "n"]);
  assert.deepEqual(await askFormByLines(question, t.ask, t.write), { action: "decline" });
  t = terminal([""]);
  assert.deepEqual(await askFormByLines(question, t.ask, t.write), { action: "cancel" });
  const stopped = new AbortController();
  stopped.abort();
  t = terminal([""]);
  assert.deepEqual(await askFormByLines(question, t.ask, t.write, stopped.signal), {
    action: "cancel",
  });
  assert.equal(t.prompts.length, 0);
});

Deno.test("a link question shows the host and the whole address escaped, with its warnings, and waits for done", async () => {
  const link: FormQuestion = {
    asker: 'MCP server "pay"',
    message: "Pay here",
    fields: [],
    link: {
      url: "https://shop.test@evil.test/\u202epay",
      host: "evil.test",
      warnings: ["the address has a user name before @"],
    },
  };
  let t = terminal(["maybe", "d"]);
  assert.deepEqual(await askFormByLines(link, t.ask, t.write), { action: "accept", values: {} });
  assert.match(t.shown(), /asks you to open a web page \(hel does not open it/);
  assert.match(
    t.shown(),
    /\n {2}host: evil\.test\n {2}address: https:\/\/shop\.test@evil\.test\/\\u202epay\n/,
  );
  assert.match(t.shown(), /warning: the address has a user name before @/);
  assert.equal(t.prompts.length, 2, "an answer that is none of the choices asks again");
  t = terminal(["n"]);
  assert.deepEqual(await askFormByLines(link, t.ask, t.write), { action: "decline" });
  t = terminal(["c"]);
  assert.deepEqual(await askFormByLines(link, t.ask, t.write), { action: "cancel" });
});

Deno.test("a form without fields is a yes-or-no question", async () => {
  const t = terminal(["e", "y"]);
  const empty = { ...question, fields: [] };
  assert.deepEqual(await askFormByLines(empty, t.ask, t.write), { action: "accept", values: {} });
  assert.deepEqual(t.prompts, [
    "Answer: [y]es / [n]o, decline / [c]ancel: ",
    "Answer: [y]es / [n]o, decline / [c]ancel: ",
  ]);
});

Deno.test("a field's texts stay on their line: a server's newline cannot print a line of hel's own", async () => {
  const forged = "Send it? [y]es / [e]dit / [n]o, decline / [c]ancel: ";
  const field: FormField = {
    name: "who",
    label: `Name\n${forged}`,
    description: "your name\nsecond line",
    kind: "text",
    required: false,
    default: "Al\nBo",
  };
  const t = terminal(["", "y"]);
  await askFormByLines({ ...question, fields: [field] }, t.ask, t.write);
  const lines = t.shown().split("\n");
  assert.equal(
    lines.filter((line) => line.startsWith("Send it?")).length,
    1,
    "hel's own prompt once",
  );
  assert.ok(lines.some((line) => line.startsWith("1/1 Name\\nSend it?")), "the label on one line");
  assert.ok(
    lines.some((line) => line.endsWith(": your name\\nsecond line")),
    "the description too",
  );
  assert.ok(t.prompts.includes("  [Al\\nBo] > "), "the default too");
});
