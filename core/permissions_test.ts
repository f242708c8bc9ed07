import assert from "node:assert/strict";
import { test } from "node:test";
import { declinedByPerson, permissionDeniedText } from "./permissions.ts";

test("a refusal by the person is recognised as declined, other refusals and results are not", () => {
  const said = (text: string) => declinedByPerson(`error: ${text}`);
  assert.equal(said(permissionDeniedText("bash", "confirm", "denied")), true);
  assert.equal(said(permissionDeniedText("bash", "confirm", "denied", "use npm ci")), true);
  assert.equal(said(permissionDeniedText("bash", "confirm", "unavailable")), false);
  assert.equal(said(permissionDeniedText("bash", "read-only", null)), false);
  assert.equal(declinedByPerson("exit=0\napproval=denied"), false);
});
