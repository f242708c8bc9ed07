import assert from "node:assert/strict";
import { UsageError } from "../../core/mod.ts";
import { KNOWN_TOOLS, parseToolList, toolSettings } from "./settings.ts";

Deno.test("--tools keeps the given order, trims names and drops duplicates", () => {
  assert.deepEqual(parseToolList(undefined), [...KNOWN_TOOLS]);
  assert.deepEqual(parseToolList(" grep, read_file ,grep"), ["grep", "read_file"]);
});

Deno.test("--tools refuses unknown names listing the known ones, and an empty list", () => {
  assert.throws(() => parseToolList("read_file,cat"), (error: Error) => {
    assert.ok(error instanceof UsageError);
    assert.equal(
      error.message,
      "--tools: unknown tool: cat (known: bash, read_file, write_file, search_replace, glob, grep)",
    );
    return true;
  });
  assert.throws(() => parseToolList(" , "), /--tools: no tools given/);
});

Deno.test("the tool list and the bash time limit are read from the parsed flags", () => {
  assert.deepEqual(toolSettings({}), { tools: [...KNOWN_TOOLS], timeoutSeconds: 600 });
  assert.deepEqual(
    toolSettings({ tools: "bash", sandbox: "off", bashTimeout: "2" }),
    { tools: ["bash"], timeoutSeconds: 2 },
  );
  for (const bad of ["0", "-1", "soon", ""]) {
    assert.throws(
      () => toolSettings({ bashTimeout: bad }),
      /--bash-timeout: expected a positive number of seconds/,
    );
  }
  assert.equal(toolSettings({ bashTimeout: "2147483" }).timeoutSeconds, 2_147_483);
  assert.throws(
    () => toolSettings({ bashTimeout: "3000000" }),
    /--bash-timeout: 3000000 seconds is more than the longest limit hel can keep, 2147483/,
  );
});
