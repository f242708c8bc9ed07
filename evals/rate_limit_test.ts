/**
 * The pacing of model requests (`--rpm`): the pacer's slots on a fake clock, and the proxy in
 * front of a real (scripted) model server, as hel's requests pass it.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { scriptedModel } from "../tests/_helpers.ts";
import { RequestPacer, startRateLimitProxy } from "./rate_limit.ts";

/** A pacer on a clock that stands still unless a test moves it; sleeps are recorded. */
function fakePacer(perMinute: number) {
  let now = 1_000;
  const sleeps: number[] = [];
  const pacer = new RequestPacer(perMinute, () => now, (ms) => {
    sleeps.push(ms);
    return Promise.resolve();
  });
  return { pacer, sleeps, advance: (ms: number) => now += ms };
}

Deno.test("the pacer lets the first request go at once and spaces the rest 60 s / rpm apart", async () => {
  const { pacer, sleeps, advance } = fakePacer(30);
  await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
  deepEqual(sleeps, [2_000, 4_000]);
  advance(10_000); // idle: the next request owes nothing to the earlier ones
  await pacer.acquire();
  deepEqual(sleeps, [2_000, 4_000]);
  deepEqual(pacer.stats, { requests: 4, waitedMs: 6_000 });
});

Deno.test("the proxy forwards hel's requests, headers and streamed answers, each through the pacer", async () => {
  await using model = scriptedModel([{ text: "one" }, { text: "two" }]);
  const { pacer, sleeps } = fakePacer(60);
  await using proxy = startRateLimitProxy(model.url, pacer);
  match(proxy.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const ask = () =>
    fetch(`${proxy.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({
        model: "m",
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
  const answers = await Promise.all([ask(), ask()]);
  const bodies = await Promise.all(answers.map((answer) => answer.text()));
  deepEqual(answers.map((answer) => answer.status), [200, 200]);
  match(bodies.join(""), /"content":"one"[^]*"content":"two"|"content":"two"[^]*"content":"one"/);
  equal(model.requests.length, 2);
  equal(model.requests[0]!.headers?.authorization, "Bearer sk-test");
  deepEqual(sleeps, [1_000]);

  // Only the endpoint's own path is forwarded.
  const elsewhere = await fetch(proxy.baseUrl.replace(/\/v1$/, "/admin"));
  equal(elsewhere.status, 404);
  match(await elsewhere.text(), /forwards only below \/v1\//);
  equal(model.requests.length, 2);
});

Deno.test("an endpoint that cannot be reached is a 502 naming it, which hel reports as a server error", async () => {
  const { pacer } = fakePacer(60);
  await using proxy = startRateLimitProxy("http://127.0.0.1:9/v1", pacer);
  const answer = await fetch(`${proxy.baseUrl}/chat/completions`, { method: "POST", body: "{}" });
  equal(answer.status, 502);
  match(await answer.text(), /eval rate-limit proxy: http:\/\/127\.0\.0\.1:9/);
});
