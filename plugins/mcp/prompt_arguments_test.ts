import assert from "node:assert/strict";
import { argumentAt, parseArguments, typedValue, usage, words } from "./prompt_arguments.ts";

const declared = [
  { name: "city", required: true },
  { name: "state", required: false },
];

Deno.test("prompt arguments: words in order, quotes keep spaces, name=value names one", () => {
  assert.deepEqual(words(`Boston "New York" state="N Y"`).map((word) => word.text), [
    "Boston",
    "New York",
    "state=N Y",
  ]);
  assert.deepEqual(parseArguments("Boston MA", declared), {
    ok: true,
    values: { city: "Boston", state: "MA" },
  });
  assert.deepEqual(parseArguments(`state=CA "San Francisco"`, declared), {
    ok: true,
    values: { state: "CA", city: "San Francisco" },
  });
  // Words beyond the arguments join the last one, as a sentence would.
  assert.deepEqual(parseArguments("Salt Lake City", declared), {
    ok: true,
    values: { city: "Salt", state: "Lake City" },
  });
  // A word with "=" that names no argument is a value.
  assert.deepEqual(parseArguments("a=b", declared), { ok: true, values: { city: "a=b" } });
});

Deno.test("prompt arguments: a missing required one and extra words are answered with the usage", () => {
  assert.deepEqual(parseArguments("state=MA", declared), {
    ok: false,
    error: "missing city: <city> [state]",
  });
  assert.deepEqual(parseArguments("x", []), {
    ok: false,
    error: "too many arguments: it takes none",
  });
  assert.equal(usage(declared), "<city> [state]");
});

Deno.test("prompt arguments: the word being typed, its argument and the values before it", () => {
  assert.deepEqual(argumentAt("Bos", declared), {
    argument: declared[0],
    typed: "Bos",
    start: 0,
    prefix: "",
    before: {},
  });
  assert.deepEqual(argumentAt("Boston ", declared), {
    argument: declared[1],
    typed: "",
    start: 7,
    prefix: "",
    before: { city: "Boston" },
  });
  assert.deepEqual(argumentAt("Boston state=M", declared)?.prefix, "state=");
  assert.deepEqual(argumentAt("state=MA Bo", declared)?.before, { state: "MA" });
  assert.equal(argumentAt("Boston MA ", declared), undefined);
  assert.equal(typedValue("New York"), '"New York"');
  assert.equal(typedValue('say "hi"'), `'say "hi"'`);
  assert.equal(typedValue("plain"), "plain");
});
