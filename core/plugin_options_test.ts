import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError } from "./usage_error.ts";
import type { PluginOption } from "./plugin.ts";
import { optionKey, optionValue, withDefaults } from "./plugin_options.ts";

test("optionKey() is commander's camelCase key of the long flag", () => {
  assert.equal(optionKey({ flags: "--bash-timeout <seconds>" }), "bashTimeout");
  assert.equal(optionKey({ flags: "--no-compaction" }), "compaction");
  assert.equal(optionKey({ flags: "-s, --sandbox-read <path>" }), "sandboxRead");
});

test("optionValue() parses the given value or the default; a bad one throws the parse's error", () => {
  const limit: PluginOption<number> = {
    flags: "--limit <n>",
    description: "a limit",
    default: "3",
    parse(value) {
      const n = Number(value);
      if (!Number.isInteger(n)) {
        throw new UsageError(`--limit: expected a whole number, got "${value}"`);
      }
      return n;
    },
  };
  assert.equal(optionValue({}, limit), 3);
  assert.equal(optionValue({ limit: "7" }, limit), 7);
  assert.throws(() => optionValue({ limit: "x" }, limit), /^UsageError: --limit: expected a whole/);
  assert.equal(optionValue({ name: "a" }, { flags: "--name <n>", description: "" }), "a");
});

test("withDefaults() keeps a default for every option left out or undefined", () => {
  assert.deepEqual(withDefaults({ a: 1, b: 2 }, { b: 3 }), { a: 1, b: 3 });
  assert.deepEqual(withDefaults({ a: 1, b: 2 }, { a: undefined }), { a: 1, b: 2 });
  assert.deepEqual(withDefaults({ a: 1 }), { a: 1 });
});
