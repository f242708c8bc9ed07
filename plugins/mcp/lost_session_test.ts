import assert from "node:assert/strict";
import { RenewalFailed, resendingOnLostSession, SessionLost } from "./lost_session.ts";

/** A send that fails with each of `errors` in turn, then answers "ok"; counts its sendings. */
function sender(...errors: Error[]) {
  const sent = { count: 0 };
  const send = () => {
    const error = errors[sent.count++];
    return error ? Promise.reject(error) : Promise.resolve("ok");
  };
  return { send, sent };
}

Deno.test("a call refused for a forgotten session is sent once more after the renewal", async () => {
  const { send, sent } = sender(new SessionLost());
  let renewals = 0;
  const resending = resendingOnLostSession(send, () => (renewals++, Promise.resolve(undefined)));
  assert.equal(await resending(), "ok");
  assert.deepEqual([sent.count, renewals], [2, 1]);
});

Deno.test("a second 404 fails the call; it is not renewed again", async () => {
  const { send, sent } = sender(new SessionLost(), new SessionLost(), new SessionLost());
  let renewals = 0;
  const resending = resendingOnLostSession(send, () => (renewals++, Promise.resolve(undefined)));
  await assert.rejects(resending(), SessionLost);
  // Called again (a feature's retry), it still renews no more.
  await assert.rejects(resending(), SessionLost);
  assert.deepEqual([sent.count, renewals], [3, 1]);
});

Deno.test("a call whose connection failed any other way is never sent again", async () => {
  const { send, sent } = sender(new Error("Connection closed"));
  const resending = resendingOnLostSession(send, () => Promise.resolve(undefined));
  await assert.rejects(resending(), /Connection closed/);
  assert.equal(sent.count, 1);
});

Deno.test("a renewal that fails answers the call with its text", async () => {
  const { send, sent } = sender(new SessionLost());
  const failure = { ok: false, text: "MCP server api went away again" };
  const resending = resendingOnLostSession(send, () => Promise.resolve(failure));
  const error = await resending().catch((e) => e);
  assert.ok(error instanceof RenewalFailed);
  assert.deepEqual(error.result, failure);
  assert.equal(sent.count, 1);
});
