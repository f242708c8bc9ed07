import assert from "node:assert/strict";
import type { FormField, FormQuestion } from "../../core/form.ts";
import { formKey, type FormKeyPress, type FormState, initialFormState } from "./form_keys.ts";
import { formRows } from "./form_layout.ts";

const fields: FormField[] = [
  {
    name: "name",
    label: "Name",
    kind: "text",
    required: true,
    check: (value) => (value as string).length > 5 ? "must be at most 5 characters" : undefined,
  },
  { name: "ok", label: "Agree", kind: "boolean", required: false },
  {
    name: "size",
    label: "Size",
    kind: "choice",
    required: true,
    options: [{ value: "s", label: "Small" }, { value: "l", label: "Large" }],
    default: "s",
  },
  {
    name: "tags",
    label: "Tags",
    kind: "choices",
    required: false,
    options: [{ value: "a", label: "Alpha" }, { value: "b", label: "Beta" }],
  },
];
const question: FormQuestion = { asker: "MCP server x", message: "Fill\x1b[2J in", fields };

/** Plays keys: a string is typed text, an object a special key. */
function play(keys: (string | FormKeyPress)[], start = initialFormState(question)) {
  let state: FormState = start;
  for (const key of keys) {
    const outcome = typeof key === "string"
      ? formKey(question, state, key, {})
      : formKey(question, state, "", key);
    state = outcome.state;
    if (outcome.answer) return { state, answer: outcome.answer };
  }
  return { state, answer: undefined };
}

const ENTER = { return: true };
const RIGHT = { rightArrow: true };

Deno.test("a required field keeps the focus until it has a value that fits, saying what is wrong", () => {
  let { state } = play([ENTER]);
  assert.equal(state.focus, 0);
  assert.equal(state.problem, "required");
  ({ state } = play(["Adalovelace", ENTER]));
  assert.equal(state.problem, "must be at most 5 characters");
  ({ state } = play(["Adalovelace", "\x15Ada", ENTER]));
  assert.equal(state.focus, 1, "Ctrl-U typed with other keys still clears the line");
  assert.equal(state.values.name, "Ada");
  assert.equal(state.problem, undefined);
});

Deno.test("yes/no and single choices change with arrows, Space or y/n; choices are ticked with Space; Enter on the last field reviews", () => {
  const { state, answer } = play([
    "Ada",
    ENTER,
    " ",
    { downArrow: true },
    RIGHT,
    ENTER,
    RIGHT,
    " ",
    ENTER,
  ]);
  assert.equal(answer, undefined);
  assert.equal(state.stage, "review");
  assert.deepEqual(state.values, { name: "Ada", ok: true, size: "l", tags: ["b"] });
  const sent = formKey(question, state, "y", {});
  assert.deepEqual(sent.answer, { action: "accept", values: state.values });
  const optional = play([" ", " ", " "], { ...initialFormState(question), focus: 1 }).state;
  assert.equal(optional.values.ok, undefined, "an optional yes/no cycles through not set");
  assert.equal(play(["n"], { ...initialFormState(question), focus: 1 }).state.values.ok, false);
});

Deno.test("the review edits from the first field, declines with n, and Enter chooses only after an arrow", () => {
  const review = play(["Ada", ENTER, ENTER, ENTER, ENTER]).state;
  assert.equal(review.stage, "review");
  assert.equal(formKey(question, review, "", ENTER).answer, undefined);
  const edit = formKey(question, review, "e", {}).state;
  assert.deepEqual([edit.stage, edit.focus, edit.draft], ["fill", 0, "Ada"]);
  assert.deepEqual(formKey(question, review, "n", {}).answer, { action: "decline" });
  const down = formKey(question, review, "", { downArrow: true }).state;
  assert.deepEqual(formKey(question, down, "", ENTER).answer, {
    action: "accept",
    values: { name: "Ada", size: "s" },
  });
});

Deno.test("Esc and Ctrl-C cancel from anywhere; a link question offers done and decline", () => {
  assert.deepEqual(play([{ escape: true }]).answer, { action: "cancel" });
  assert.deepEqual(formKey(question, initialFormState(question), "c", { ctrl: true }).answer, {
    action: "cancel",
  });
  const link: FormQuestion = {
    asker: "MCP server x",
    message: "Open it",
    fields: [],
    link: { url: "https://a.test/", host: "a.test", warnings: [] },
  };
  const state = initialFormState(link);
  assert.equal(state.stage, "review");
  assert.equal(formKey(link, state, "y", {}).answer, undefined, "y is no choice of a link");
  assert.deepEqual(formKey(link, state, "d", {}).answer, { action: "accept", values: {} });
  assert.deepEqual(formKey(link, state, "2", {}).answer, { action: "decline" });
});

Deno.test("the box shows the fields around the focused one in the rows it has, the server's text escaped", () => {
  const many: FormQuestion = {
    asker: "MCP server x",
    message: "Fill\x1b[2J in\n".repeat(20),
    fields: Array.from({ length: 50 }, (_, i): FormField => ({
      name: `f${i}`,
      label: `Field ${i}\u202e`,
      kind: "text",
      required: false,
    })),
  };
  const state = { ...initialFormState(many), focus: 30 };
  const { head, body, foot } = formRows(many, state, 60, 24);
  const all = [...head, ...body, ...foot];
  assert.ok(all.length <= 24 + 2, `${all.length} rows`);
  assert.ok(all.every((row) => row.text.length <= 60));
  assert.ok(body.some((row) => row.text.startsWith("❯ Field 30\\u202e: ")));
  assert.equal(body.length, 24 - head.length - foot.length - 2);
  assert.ok(head.some((row) => row.text === "Fill\\u001b[2J in"));
  assert.ok(head.some((row) => /^… \d+ more rows$/.test(row.text)), "a long message is cut");
  assert.match(foot[0]!.text, /^field 31 of 50 · /);
  assert.ok(!all.some((row) => row.text.includes("\x1b")));
});
