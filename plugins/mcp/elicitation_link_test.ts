import assert from "node:assert/strict";
import { linkOf, MAX_URL } from "./elicitation_link.ts";

Deno.test("a link is shown with the host a browser would reach and what could mislead about it", () => {
  assert.deepEqual(linkOf("https://login.example.com/a?b=c"), {
    ok: true,
    link: { url: "https://login.example.com/a?b=c", host: "login.example.com", warnings: [] },
  });
  const dressed = linkOf("http://bank.example:pw@evil.test:8080/");
  assert.ok(dressed.ok);
  assert.equal(dressed.link.host, "evil.test:8080");
  assert.deepEqual(dressed.link.warnings.map((w) => w.split(",")[0]), [
    "the address has a user name before @",
    "not https: what you send there travels unencrypted",
  ]);
  const lookalike = linkOf("https://аpple.com/"); // a Cyrillic а
  assert.ok(lookalike.ok);
  assert.equal(lookalike.link.host, "xn--pple-43d.com");
  assert.match(lookalike.link.warnings[0]!, /internationalised name \(xn--\)/);
});

Deno.test("addresses that are no web page, or too long to show whole, are refused", () => {
  assert.deepEqual(linkOf("javascript:alert(1)"), {
    ok: false,
    problem: "its address starts with javascript:, not https: or http:, and hel shows only web " +
      "addresses",
  });
  assert.equal(linkOf("file:///etc/passwd").ok, false);
  assert.deepEqual(linkOf("not a url"), { ok: false, problem: "its address is not a valid URL" });
  const long = `https://a.test/${"x".repeat(MAX_URL)}`;
  const refused = linkOf(long);
  assert.ok(!refused.ok && /hel shows addresses of at most 2000, whole/.test(refused.problem));
});
