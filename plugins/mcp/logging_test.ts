import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { FeatureServer } from "./client_features.ts";
import { CallsInFlight } from "./call_clock.ts";
import type { ServerConfig } from "./config.ts";
import { loggingFeature, SHOWN_PER_MINUTE, TRACED_PER_WINDOW } from "./logging.ts";

type Params = { level: string; logger?: string; data?: unknown };

/** The feature installed on a stand-in client; `send` delivers a notifications/message. */
function installed(config: Partial<ServerConfig> = {}) {
  let now = 0;
  const traced: Record<string, unknown>[] = [];
  const shown: string[] = [];
  let handler: ((notification: { params: Params }) => void) | undefined;
  const client = {
    setNotificationHandler: (_: unknown, h: typeof handler) => handler = h,
  } as unknown as Client;
  const server: FeatureServer = {
    config: { name: "s", ...config } as ServerConfig,
    trace: (data) => traced.push(data),
    calls: new CallsInFlight(),
  };
  loggingFeature({ warn: (text) => shown.push(text), now: () => now }).install!(client, server);
  return {
    traced,
    shown,
    send: (params: Params) => handler!({ params }),
    later: (ms: number) => now += ms,
  };
}

Deno.test("messages below the entry's level are dropped even when the server sends them", () => {
  const log = installed({ logLevel: "error" });
  log.send({ level: "warning", data: "ignored" });
  log.send({ level: "alert", data: { disk: "full" } });
  assert.deepEqual(log.traced, [{
    event: "log",
    server: "s",
    level: "alert",
    data: '{"disk":"full"}',
  }]);
  assert.deepEqual(log.shown, ['MCP server s logged alert: {"disk":"full"}']);
});

Deno.test("a long message is cut in the trace and shorter on the terminal", () => {
  const log = installed();
  log.send({ level: "error", logger: "x".repeat(150), data: "é".repeat(5_000) });
  const [entry] = log.traced;
  assert.equal(entry!.data, `${"é".repeat(4_000)}…`);
  assert.equal(entry!.truncated, true);
  assert.equal(entry!.logger, `${"x".repeat(100)}…`);
  assert.ok(log.shown[0]!.endsWith(`: ${"é".repeat(300)}…`));
});

Deno.test("a flood: the trace counts what it dropped, the terminal says so once a minute", () => {
  const log = installed();
  for (let i = 0; i < TRACED_PER_WINDOW + 20; i++) log.send({ level: "error", data: `m${i}` });
  assert.equal(log.traced.filter((e) => e.event === "log").length, TRACED_PER_WINDOW);
  assert.equal(log.traced.filter((e) => e.event === "log_dropped").length, 1);
  assert.equal(log.shown.length, SHOWN_PER_MINUTE + 1);
  assert.match(log.shown.at(-1)!, /^MCP server s logged more than 5 errors within a minute/);
  // Ten seconds on, the trace takes messages again and says how many it left out.
  log.later(10_000);
  log.send({ level: "error", data: "after" });
  assert.deepEqual(log.traced.at(-1), {
    event: "log",
    server: "s",
    level: "error",
    data: "after",
    dropped: 20,
  });
  assert.equal(log.shown.length, SHOWN_PER_MINUTE + 1, "still within the minute");
  log.later(50_000);
  log.send({ level: "critical", data: "next minute" });
  assert.equal(log.shown.at(-1), "MCP server s logged critical: next minute");
});

/** A stand-in client for the level request. */
function levelClient(capabilities: Record<string, unknown>, answer: () => Promise<unknown>) {
  const asked: unknown[] = [];
  const client = {
    getServerCapabilities: () => capabilities,
    setLoggingLevel: (level: string, options: unknown) => {
      asked.push([level, options]);
      return answer();
    },
  } as unknown as Client;
  return { client, asked };
}

Deno.test("the level is asked only of a server that declares logging; a refusal is traced", async () => {
  const feature = loggingFeature({ warn: () => {} });
  const traced: Record<string, unknown>[] = [];
  const server = (logLevel?: string) => ({
    config: { name: "s", ...(logLevel ? { logLevel } : {}) } as ServerConfig,
    trace: (data: Record<string, unknown>) => traced.push(data),
    calls: new CallsInFlight(),
  });
  const none = levelClient({ tools: {} }, () => Promise.resolve({}));
  await feature.connected!(none.client, server(), 1000);
  assert.deepEqual(none.asked, []);

  const ok = levelClient({ logging: {} }, () => Promise.resolve({}));
  await feature.connected!(ok.client, server("info"), 1000);
  assert.deepEqual(ok.asked, [["info", { timeout: 1000 }]]);

  const refusing = levelClient(
    { logging: {} },
    () => Promise.reject(new McpError(ErrorCode.MethodNotFound, "Method not found")),
  );
  await feature.connected!(refusing.client, server(), 1000);
  assert.deepEqual(traced, [
    { event: "log_level", server: "s", level: "info" },
    {
      event: "log_level",
      server: "s",
      level: "warning",
      refused: "MCP error -32601: Method not found",
    },
  ]);

  // A server that went away fails its start-up as it would at any other step.
  const gone = levelClient(
    { logging: {} },
    () => Promise.reject(new McpError(ErrorCode.ConnectionClosed, "Connection closed")),
  );
  await assert.rejects(feature.connected!(gone.client, server(), 1000), /Connection closed/);
});
