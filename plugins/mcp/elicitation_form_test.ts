import assert from "node:assert/strict";
import type { FormField } from "../../core/mod.ts";
import { answerContent, formFields, MAX_FIELDS, MAX_OPTIONS } from "./elicitation_form.ts";

function fieldsOf(properties: Record<string, unknown>, required?: string[]): FormField[] {
  const built = formFields({ properties, ...(required ? { required } : {}) });
  assert.ok(built.ok, built.ok ? "" : built.problem);
  return built.fields;
}

function problemOf(properties: Record<string, unknown>, required?: string[]): string {
  const built = formFields({ properties, ...(required ? { required } : {}) });
  assert.ok(!built.ok);
  return built.problem;
}

Deno.test("each kind of property becomes a field with its label, description, default and hint", () => {
  const [text, whole, pick, legacy, many, yes] = fieldsOf({
    mail: {
      type: "string",
      title: "Mail",
      description: "Where",
      format: "email",
      default: "a@b.c",
    },
    n: { type: "integer", minimum: 1, maximum: 100 },
    hero: {
      type: "string",
      oneOf: [{ const: "h1", title: "Superman" }, { const: "h1", title: "Again" }],
    },
    pet: { type: "string", enum: ["p1", "p2"], enumNames: ["Cats"] },
    fish: { type: "array", items: { anyOf: [{ const: "f1", title: "Tuna" }] }, maxItems: 1 },
    ok: { type: "boolean", default: false },
  }, ["mail"]);
  assert.deepEqual(
    { ...text, check: undefined },
    {
      name: "mail",
      label: "Mail",
      description: "Where",
      required: true,
      default: "a@b.c",
      kind: "text",
      hint: "an email address",
      check: undefined,
    },
  );
  assert.equal(text!.check!("a@b"), "must be an email address");
  assert.deepEqual([whole!.label, whole!.kind, whole!.hint], [
    "n",
    "integer",
    "a whole number, 1 to 100",
  ]);
  assert.equal(whole!.check!(0), "must be at least 1");
  assert.deepEqual(
    pick!.options,
    [{ value: "h1", label: "Superman" }],
    "a repeated choice is shown once",
  );
  assert.deepEqual(
    legacy!.options,
    [{ value: "p1", label: "p1" }, { value: "p2", label: "p2" }],
    "enumNames that do not match the values one for one are not used",
  );
  assert.deepEqual([many!.kind, many!.hint], ["choices", "pick at most 1"]);
  assert.equal(many!.check!(["f1", "f1"]), "pick at most 1");
  assert.deepEqual([yes!.kind, yes!.default], ["boolean", false]);
});

Deno.test("string formats and lengths are checked; a pattern is left to the server", () => {
  const [uri, date, time, short] = fieldsOf({
    u: { type: "string", format: "uri" },
    d: { type: "string", format: "date" },
    t: { type: "string", format: "date-time" },
    s: { type: "string", minLength: 2, maxLength: 3, pattern: "^(a+)+$" },
  });
  assert.equal(uri!.check!("https://a.test/x"), undefined);
  assert.equal(uri!.check!("not a uri"), "must be a web address (URI)");
  assert.equal(date!.check!("2026-02-30"), "must be a date, YYYY-MM-DD");
  assert.equal(date!.check!("2024-02-29"), undefined);
  assert.equal(time!.check!("2026-01-31T09:30:00+01:00"), undefined);
  assert.equal(
    time!.check!("2026-01-31 09:30"),
    "must be a date and time, e.g. 2026-01-31T09:30:00Z",
  );
  assert.equal(short!.check!("🙂🙂"), undefined, "lengths count characters, not UTF-16 units");
  assert.equal(short!.check!("abcd"), "must be at most 3 characters");
  assert.equal(short!.check!("ab!"), undefined, "the pattern is not run on hel's side");
});

Deno.test("forms too large or impossible to answer are refused with the reason", () => {
  const wide = Object.fromEntries(
    Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: "string" }]),
  );
  assert.equal(problemOf(wide), `its form has ${MAX_FIELDS + 1} fields; hel asks at most 50`);
  const choices = Array.from({ length: MAX_OPTIONS + 1 }, (_, i) => `c${i}`);
  assert.equal(
    problemOf({ c: { type: "string", enum: choices } }),
    `its field "c" offers ${MAX_OPTIONS + 1} choices; hel shows at most ${MAX_OPTIONS}`,
  );
  assert.equal(problemOf({ c: { type: "string", enum: [] } }), 'its field "c" offers no choices');
  assert.match(
    problemOf({ c: { type: "array", items: { enum: ["a", "b"] }, minItems: 3 } }),
    /asks for at least 3 of 2 choices, which no answer can give/,
  );
  assert.match(
    problemOf({ s: { type: "string", minLength: 4, maxLength: 2 } }),
    /minLength \(4\) above its maxLength \(2\)/,
  );
  assert.match(
    problemOf({ a: { type: "string" } }, ["b"]),
    /requires "b", which is not one of its fields/,
  );
  assert.match(problemOf({ ["x".repeat(300)]: { type: "string" } }), /name is over 200 characters/);
});

Deno.test("an answer is sent with the values that were given, each checked once more", () => {
  const fields = fieldsOf({
    n: { type: "number", maximum: 5 },
    c: { type: "string", enum: ["a"] },
    o: { type: "string" },
  }, ["n"]);
  assert.deepEqual(answerContent(fields, { n: 2, c: "a" }), { content: { n: 2, c: "a" } });
  assert.deepEqual(answerContent(fields, { c: "a" }), { problem: "n is required" });
  assert.deepEqual(answerContent(fields, { n: 9 }), { problem: "n: must be at most 5" });
  assert.deepEqual(answerContent(fields, { n: "2" }), { problem: "n: not a number" });
  assert.deepEqual(answerContent(fields, { n: 1, c: "z" }), {
    problem: "c: not one of the choices",
  });
});
