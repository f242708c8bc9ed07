import assert from "node:assert/strict";
import { parseMcpConfig } from "./config.ts";
import { logRank } from "./log_level.ts";

const parse = (entry: string) =>
  parseMcpConfig(
    new TextEncoder().encode(`{"servers": {"a": {"command": "x", ${entry}}}}`),
    ".hel/mcp.json",
  );

Deno.test("an entry's logLevel is one of the eight MCP levels; absent means the default", () => {
  const level = (entry: string) => {
    const result = parse(entry);
    return result.ok ? result.servers[0]!.logLevel : result.problems;
  };
  assert.equal(level(`"logLevel": "debug"`), "debug");
  assert.equal(level(`"logLevel": "emergency"`), "emergency");
  assert.equal(level(`"args": []`), undefined);
});

Deno.test("a wrong logLevel names the field, the levels and the likely one", () => {
  const problems = (entry: string) => {
    const result = parse(entry);
    assert.ok(!result.ok);
    return result.problems;
  };
  const levels = '"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"';
  assert.deepEqual(problems(`"logLevel": "warn"`), [
    `.hel/mcp.json:1:48: servers."a".logLevel must be one of ${levels} (did you mean ` +
    `"warning"?); leave it out for "warning"`,
  ]);
  assert.match(problems(`"logLevel": "eror"`)[0]!, /\(did you mean "error"\?\)/);
  assert.match(
    problems(`"logLevel": 3`)[0]!,
    /logLevel must be one of "debug", .*"emergency"; leave/,
  );
  assert.match(problems(`"loglevel": "info"`)[0]!, /unknown field .*\(did you mean "logLevel"\?\)/);
});

Deno.test("levels rank from debug to emergency; anything else ranks below all", () => {
  assert.ok(logRank("debug") < logRank("info"));
  assert.ok(logRank("error") < logRank("emergency"));
  assert.equal(logRank("verbose"), -1);
});
