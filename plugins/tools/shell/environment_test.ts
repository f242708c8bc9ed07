import assert from "node:assert/strict";
import { shellLine } from "./environment.ts";

Deno.test("the Shell line names bash, and a login shell that is not bash besides", () => {
  assert.equal(shellLine(undefined), "Shell: bash");
  assert.equal(shellLine("/bin/bash"), "Shell: bash");
  assert.equal(shellLine("/usr/bin/fish"), "Shell: bash (the user's login shell is /usr/bin/fish)");
});
