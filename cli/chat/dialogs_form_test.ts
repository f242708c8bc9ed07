import assert from "node:assert/strict";
import type { FormQuestion } from "../../core/form.ts";
import { Dialogs } from "./dialogs.ts";

const question = (message: string): FormQuestion => ({
  asker: "MCP server x",
  message,
  fields: [],
});

Deno.test("form questions open one at a time; one whose signal aborts is a cancel, open or waiting", async () => {
  const dialogs = new Dialogs(() => {});
  const first = dialogs.askForm(question("first"));
  const stopped = new AbortController();
  const second = dialogs.askForm(question("second"), stopped.signal);
  const third = dialogs.askForm(question("third"));
  await Promise.resolve();
  assert.equal(dialogs.form?.question.message, "first");
  stopped.abort(); // the second's call ended while it waited
  dialogs.form!.answer({ action: "decline" });
  assert.deepEqual(await first, { action: "decline" });
  assert.deepEqual(await second, { action: "cancel" });
  await Promise.resolve();
  assert.equal(dialogs.form?.question.message, "third");
  const open = new AbortController();
  const fourth = dialogs.askForm(question("fourth"), open.signal);
  dialogs.form!.answer({ action: "accept", values: {} });
  assert.deepEqual(await third, { action: "accept", values: {} });
  await Promise.resolve();
  assert.equal(dialogs.form?.question.message, "fourth");
  open.abort(); // Ctrl-C, the call's end: the open box closes as a cancel
  assert.deepEqual(await fourth, { action: "cancel" });
  assert.equal(dialogs.form, undefined);
});

Deno.test("a waiting form whose signal aborts is a cancel at once, not when the open one is answered", async () => {
  const dialogs = new Dialogs(() => {});
  const first = dialogs.askForm(question("first"));
  const stopped = new AbortController();
  const second = dialogs.askForm(question("second"), stopped.signal);
  await Promise.resolve();
  stopped.abort();
  const settled = await Promise.race([
    second,
    new Promise((resolve) => setTimeout(() => resolve("still waiting"), 50)),
  ]);
  assert.deepEqual(settled, { action: "cancel" });
  assert.equal(dialogs.form?.question.message, "first", "the open one stays open");
  dialogs.form!.answer({ action: "decline" });
  assert.deepEqual(await first, { action: "decline" });
  await Promise.resolve();
  assert.equal(dialogs.form, undefined, "the cancelled one never opens");
});
