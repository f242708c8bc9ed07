import assert from "node:assert/strict";
import { rootWarning } from "./root_warning.ts";

Deno.test("the root warning is for uid 0 only and says the risk and what to do", () => {
  assert.equal(rootWarning(true, 1000), undefined);
  assert.equal(rootWarning(false, null), undefined); // no uid (not Linux or macOS)
  const sandboxed = rootWarning(true, 0)!;
  assert.match(sandboxed, /^hel runs as root: programs in its sandbox still run as root/);
  assert.match(sandboxed, /Run hel as an ordinary user/);
  assert.match(rootWarning(false, 0)!, /with --sandbox off, bash, glob and grep run as root/);
});
