import assert from "node:assert/strict";
import type { CatalogEntry } from "./catalog.ts";
import { serverStatusLines } from "./status.ts";

const entry = (server: string, toolName: string): CatalogEntry => ({
  fullName: `mcp__${server}__${toolName}`,
  server,
  toolName,
  description: "",
  inputSchema: { type: "object" },
  check: (args) => ({ ok: true, args }),
});

Deno.test("each server is one line: connected with its tools and how many are loaded, or why not", () => {
  let alive = true;
  let restarts = { count: 0, gaveUp: false };
  const lines = () =>
    serverStatusLines(
      [
        { name: "fs", status: "connected", connected: () => alive, restarts: () => restarts },
        { name: "notes", status: "skipped", reason: "exited during initialize (code 1)" },
        { name: "one", status: "connected", connected: () => true },
      ],
      [entry("fs", "read"), entry("fs", "write"), entry("one", "ping")],
      new Set(["mcp__fs__write"]),
    );
  assert.deepEqual(lines(), [
    "fs: connected, 2 tools (1 loaded)",
    "notes: skipped: exited during initialize (code 1)",
    "one: connected, 1 tool (0 loaded)",
  ]);
  alive = false;
  assert.equal(
    lines()[0],
    "fs: disconnected (it exited or closed the connection); its 2 tools (1 loaded) start it " +
      "again when one is called",
  );
  alive = true;
  restarts = { count: 2, gaveUp: false };
  assert.equal(lines()[0], "fs: connected, 2 tools (1 loaded), restarted 2 times");
  alive = false;
  restarts = { count: 3, gaveUp: true };
  assert.equal(
    lines()[0],
    "fs: given up after 3 restarts (it kept going away); its 2 tools (1 loaded) fail until hel " +
      "starts again",
  );
});
