import assert from "node:assert/strict";
import { type PluginContext, UsageError } from "../../core/mod.ts";
import { catalogueSettings, eagerLoading, mcpOptions, timings } from "./options.ts";

const context = (flags: Record<string, unknown>) => ({ flags }) as unknown as PluginContext;

Deno.test("timings come from the flags in seconds, else the deno.json options, else the defaults", () => {
  assert.deepEqual(timings(mcpOptions(), context({})), {
    startupMs: 30_000,
    shutdownWaitMs: 2_000,
  });
  const options = mcpOptions({ startupTimeoutMs: 5, shutdownWaitMs: 6 });
  assert.deepEqual(timings(options, context({})), { startupMs: 5, shutdownWaitMs: 6 });
  assert.deepEqual(
    timings(options, context({ mcpStartupTimeout: "90", mcpShutdownWait: "0" })),
    { startupMs: 90_000, shutdownWaitMs: 0 },
  );
  assert.deepEqual(
    timings(options, context({ mcpStartupTimeout: "1.5", mcpShutdownWait: "0.3" })),
    { startupMs: 1500, shutdownWaitMs: 300 },
  );
  assert.equal(eagerLoading(mcpOptions(), context({})), false);
  assert.equal(eagerLoading(mcpOptions(), context({ mcpEager: true })), true);
  assert.equal(eagerLoading(mcpOptions({ eager: true }), context({})), true);
});

Deno.test("a bad flag is a usage error naming it and the unit; bad deno.json options name each", () => {
  const refused = (flags: Record<string, unknown>, message: string) =>
    assert.throws(
      () => timings(mcpOptions(), context(flags)),
      (error: Error) => error instanceof UsageError && error.message === message,
    );
  refused(
    { mcpStartupTimeout: "soon" },
    '--mcp-startup-timeout: expected a positive number of seconds, e.g. 60, got "soon"',
  );
  refused(
    { mcpStartupTimeout: "0" },
    '--mcp-startup-timeout: expected a positive number of seconds, e.g. 60, got "0"',
  );
  refused(
    { mcpShutdownWait: "-1" },
    '--mcp-shutdown-wait: expected a number of seconds, e.g. 60, got "-1"',
  );
  refused(
    { mcpStartupTimeout: "99999999" },
    '--mcp-startup-timeout: at most 2147483 seconds, got "99999999"',
  );
  assert.throws(
    () => mcpOptions({ startupTimeoutMs: "5" as unknown as number, eger: true } as never),
    /^Error: invalid options: startupTimeoutMs: .*expected number.*; options: Unrecognized key: "eger"$/,
  );
});

Deno.test("the catalogue mode and budget come from the flags, else deno.json, else auto and 5000", () => {
  assert.deepEqual(catalogueSettings(mcpOptions(), context({})), { mode: "auto", budget: 5000 });
  const options = mcpOptions({ catalogue: "list", catalogueBudget: 100 });
  assert.deepEqual(catalogueSettings(options, context({})), { mode: "list", budget: 100 });
  assert.deepEqual(
    catalogueSettings(options, context({ mcpCatalogue: "search", mcpCatalogueBudget: "0" })),
    { mode: "search", budget: 0 },
  );
  assert.throws(
    () => catalogueSettings(options, context({ mcpCatalogueBudget: "lots" })),
    (error: Error) =>
      error instanceof UsageError &&
      error.message ===
        '--mcp-catalogue-budget: expected a whole number of tokens, e.g. 5000, got "lots"',
  );
  assert.throws(() => mcpOptions({ catalogue: "everything" }), /catalogue/);
});
