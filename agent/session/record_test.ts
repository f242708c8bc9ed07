import assert from "node:assert/strict";
import { recordedProject, recordSession } from "./record.ts";

Deno.test("a session hel created is recorded with its project; others are not", async () => {
  const home = await Deno.makeTempDir({ prefix: "hel-records-" });
  try {
    assert.equal(await recordedProject(home, "a"), undefined);
    await recordSession(home, "/p", "a");
    assert.equal(await recordedProject(home, "a"), "/p");
    assert.equal(await recordedProject(home, "b"), undefined);
    const [record] = [...Deno.readDirSync(`${home}/session-records`)];
    assert.equal(Deno.statSync(`${home}/session-records/${record!.name}`).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
