import assert from "node:assert/strict";
import { type PluginContext, UsageError } from "../../core/mod.ts";
import { eagerLoading, mcpOptions, timings } from "./options.ts";

const context = (flags: Record<string, unknown>) => ({ flags }) as unknown as PluginContext;

Deno.test("timings come from the flags, else the deno.json options, else the defaults", () => {
  assert.deepEqual(timings(mcpOptions(), context({})), {
    startupMs: 30_000,
    shutdownWaitMs: 2_000,
  });
  const options = mcpOptions({ startupTimeoutMs: 5, shutdownWaitMs: 6 });
  assert.deepEqual(timings(options, context({})), { startupMs: 5, shutdownWaitMs: 6 });
  assert.deepEqual(
    timings(options, context({ mcpStartupTimeout: "1500", mcpShutdownWait: "0" })),
    { startupMs: 1500, shutdownWaitMs: 0 },
  );
  assert.equal(eagerLoading(mcpOptions(), context({})), false);
  assert.equal(eagerLoading(mcpOptions(), context({ mcpEager: true })), true);
  assert.equal(eagerLoading(mcpOptions({ eager: true }), context({})), true);
});

Deno.test("a bad flag is a usage error naming it; bad deno.json options name each", () => {
  assert.throws(
    () => timings(mcpOptions(), context({ mcpStartupTimeout: "soon" })),
    (error: Error) =>
      error instanceof UsageError &&
      error.message === '--mcp-startup-timeout: expected a number of milliseconds, got "soon"',
  );
  assert.throws(
    () => mcpOptions({ startupTimeoutMs: "5" as unknown as number, eger: true } as never),
    /^Error: invalid options: startupTimeoutMs: .*expected number.*; options: Unrecognized key: "eger"$/,
  );
});
