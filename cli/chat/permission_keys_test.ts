import assert from "node:assert/strict";
import {
  INITIAL_PERMISSION_STATE,
  type KeyPress,
  type Offers,
  permissionKey,
  type PermissionState,
} from "./permission_keys.ts";

const ALWAYS: Offers = { always: true, save: false };

/** Presses the keys in order (a string is typed text) and returns the last outcome. */
function press(offered: boolean | Offers, ...keys: (string | KeyPress)[]) {
  const offers = typeof offered === "boolean" ? { always: offered, save: false } : offered;
  let state: PermissionState = INITIAL_PERMISSION_STATE;
  let outcome = { state } as ReturnType<typeof permissionKey>;
  for (const key of keys) {
    assert.equal(outcome.answer, undefined, "a key after the answer");
    outcome = typeof key === "string"
      ? permissionKey(state, key, {}, offers)
      : permissionKey(state, "", key, offers);
    state = outcome.state;
  }
  return outcome;
}

Deno.test("y approves once, a approves for the session, Esc and Ctrl-C say no", () => {
  assert.deepEqual(press(true, "y").answer, { approval: "approved" });
  assert.deepEqual(press(true, "Y").answer, { approval: "approved" });
  assert.deepEqual(press(true, "a").answer, { approval: "approved", always: true });
  assert.deepEqual(press(true, { escape: true }).answer, { approval: "denied" });
  assert.deepEqual(permissionKey(INITIAL_PERMISSION_STATE, "c", { ctrl: true }, ALWAYS).answer, {
    approval: "denied",
  });
});

Deno.test("u and p save the rule in the person's or the project's settings, when offered", () => {
  const saving = { always: true, save: true };
  assert.deepEqual(press(saving, "u").answer, { approval: "approved", always: true, save: "user" });
  assert.deepEqual(press(saving, "p").answer, {
    approval: "approved",
    always: true,
    save: "project",
  });
  assert.deepEqual(press(saving, "4").answer, press(saving, "p").answer);
  assert.deepEqual(press(saving, "5").state.mode, "instead");
  assert.equal(press(true, "u").answer, undefined);
  assert.equal(press(true, "p").answer, undefined);
  assert.equal(press({ always: false, save: true }, "u").answer, undefined);
});

Deno.test("a is not a choice when the call offers no rule", () => {
  assert.equal(press(false, "a").answer, undefined);
  assert.equal(press(false, "3").answer, undefined);
  assert.deepEqual(press(false, "2", "\r", { return: true }).answer, { approval: "denied" });
});

Deno.test("n asks what to do instead; Enter sends it with the no, empty is a plain no", () => {
  const asking = press(true, "n");
  assert.equal(asking.answer, undefined);
  assert.equal(asking.state.mode, "instead");
  assert.deepEqual(press(true, "n", "use ", "yarn", " ", "test", { return: true }).answer, {
    approval: "denied",
    instead: "use yarn test",
  });
  assert.deepEqual(press(true, "n", "  ", { return: true }).answer, { approval: "denied" });
  // Letters are text there, not answers.
  assert.deepEqual(press(true, "n", "y", "a", "v", { return: true }).answer, {
    approval: "denied",
    instead: "yav",
  });
});

Deno.test("the instead line edits, takes a paste on one line, and Esc returns to the choices", () => {
  assert.deepEqual(
    press(true, "n", "npm tets", { backspace: true }, { delete: true }, "st", { return: true })
      .answer,
    { approval: "denied", instead: "npm test" },
  );
  assert.deepEqual(
    press(true, "n", "first line\r\nsecond\x1b[31m", { return: true }).answer,
    { approval: "denied", instead: "first line second[31m" },
  );
  assert.deepEqual(
    press(true, "n", "old words", { ctrl: true } as KeyPress, { return: true }).answer,
    { approval: "denied", instead: "old words" },
  );
  const back = press(true, "n", "typo", { escape: true });
  assert.equal(back.answer, undefined);
  assert.equal(back.state.mode, "choose");
  assert.deepEqual(press(true, "n", { escape: true }, "y").answer, { approval: "approved" });
  let state = press(true, "n", "one two").state;
  state = permissionKey(state, "w", { ctrl: true }, ALWAYS).state;
  assert.equal(state.instead, "one ");
  state = permissionKey(state, "u", { ctrl: true }, ALWAYS).state;
  assert.equal(state.instead, "");
});

Deno.test("pasted text that starts with y or a approves nothing", () => {
  assert.equal(press(true, "yes please").answer, undefined);
  assert.equal(press(true, "a\n").answer, undefined);
});

Deno.test("Enter chooses only after the arrows picked a choice; digits choose directly", () => {
  assert.equal(press(true, { return: true }).answer, undefined);
  assert.deepEqual(press(true, { downArrow: true }, { return: true }).answer, {
    approval: "approved",
  });
  assert.deepEqual(press(true, { downArrow: true }, { downArrow: true }, { return: true }).answer, {
    approval: "approved",
    always: true,
  });
  // Up from nothing picks the last choice, "no", which asks what to do instead.
  assert.equal(press(true, { upArrow: true }, { return: true }).state.mode, "instead");
  assert.deepEqual(press(true, "2").answer, { approval: "approved", always: true });
  assert.equal(press(true, "3").state.mode, "instead");
});

Deno.test("v shows all of long content and folds it again", () => {
  assert.equal(press(true, "v").state.expanded, true);
  assert.equal(press(true, "v", "V").state.expanded, false);
  assert.equal(press(true, "v").answer, undefined);
});
