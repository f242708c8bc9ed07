import assert from "node:assert/strict";
import { fileUri } from "./roots.ts";

Deno.test("a root's URI encodes what a URL would read otherwise, and servers decode it back", () => {
  assert.equal(fileUri("/home/ann/my project"), "file:///home/ann/my%20project");
  assert.equal(fileUri("/p/a#b?c%41"), "file:///p/a%23b%3Fc%2541");
  // What Node's fileURLToPath (server-filesystem's) and the URL parser read back.
  const path = "/p/ä b#c?d%41";
  assert.equal(decodeURIComponent(new URL(fileUri(path)).pathname), path);
});
