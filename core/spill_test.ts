import assert from "node:assert/strict";
import { test } from "node:test";
import { spillIfLarge } from "./spill.ts";

const LARGE = "x".repeat(60_000);
const save = () => Promise.resolve("/s/spill/1.txt");

test("spillIfLarge() ends the notice with how to read on, when a plugin offers file reading", async () => {
  const shown = await spillIfLarge(LARGE, save, "Read it with the reader.");
  assert.match(
    shown,
    /\n\n\[Result too large: 54880 characters omitted here\. The full result is saved at \/s\/spill\/1\.txt\. Read it with the reader\.\]\n\n/,
  );
});

test("spillIfLarge() names only the saved file when no plugin offers file reading", async () => {
  const shown = await spillIfLarge(LARGE, save);
  assert.match(shown, /The full result is saved at \/s\/spill\/1\.txt\.\]\n\n/);
});

test("spillIfLarge() keeps small results, and large ones it could not save, whole", async () => {
  assert.equal(await spillIfLarge("small", save, "hint"), "small");
  assert.equal(await spillIfLarge(LARGE, () => Promise.resolve(undefined), "hint"), LARGE);
});
