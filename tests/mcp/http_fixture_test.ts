/**
 * The HTTP fixture starter of the tests (tests/_sdk_server.ts): a fixture that cannot start
 * fails the test at once, saying why in the fixture's own words.
 */
import assert from "node:assert/strict";
import { startHttpFixture } from "../_sdk_server.ts";

Deno.test("startHttpFixture: a fixture that exits before listening fails with its stderr", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hel-fixture-" });
  try {
    await assert.rejects(
      startHttpFixture("no_such_fixture.ts", `${dir}/log.jsonl`),
      /no_such_fixture\.ts exited with code 1 before listening .*its stderr ends:\n.*no_such_fixture/s,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
