import assert from "node:assert/strict";
import { loadPlugins, pluginEntries } from "./plugin_loader.ts";
import { UsageError } from "../core/usage_error.ts";

const base = new URL("../", import.meta.url);

Deno.test("pluginEntries() names the field and the fix for a malformed list", () => {
  assert.throws(() => pluginEntries({}), /"hel\.plugins" must be a list/);
  assert.throws(
    () => pluginEntries({ hel: { plugins: ["./a.ts", 3] } }),
    /hel\.plugins\[1\] must be "path\/to\/mod\.ts" or \["path\/to\/mod\.ts", \{options\}\]/,
  );
  assert.deepEqual(pluginEntries({ hel: { plugins: ["./a.ts", ["./b.ts", { x: 1 }]] } }), [
    "./a.ts",
    ["./b.ts", { x: 1 }],
  ]);
});

Deno.test("loadPlugins() passes options from deno.json to the factory", async () => {
  const [loaded] = await loadPlugins([["./fixtures/plugins/greeter.ts", { greeting: "hi" }]], base);
  assert.equal(loaded?.plugin.name, "greeter");
  assert.equal(loaded?.plugin.description, "hi");
});

Deno.test("loadPlugins() names the plugin that fails to load", async () => {
  for (
    const [specifier, reason] of [
      ["./fixtures/plugins/missing.ts", /Module not found/],
      ["./fixtures/plugins/broken_import.ts", /this_file_does_not_exist/],
      ["./fixtures/plugins/no_default.ts", /no default export factory/],
      ["./fixtures/plugins/bad_options.ts", /factory failed: options\.level must be a number/],
    ] as const
  ) {
    await assert.rejects(loadPlugins([specifier], base), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(
        error.message,
        new RegExp(`^cannot load plugin "${specifier.replaceAll(".", "\\.")}"`),
      );
      assert.match(error.message, reason);
      return true;
    });
  }
});

Deno.test("loadPlugins() refuses two plugins with one name", async () => {
  await assert.rejects(
    loadPlugins(["./fixtures/plugins/greeter.ts", "./fixtures/plugins/greeter.ts"], base),
    /the name "greeter" is taken/,
  );
});
