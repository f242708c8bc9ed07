import assert from "node:assert/strict";
import { isLoopbackUrl } from "./api_key.ts";

Deno.test("loopback base URLs are localhost, 127.0.0.0/8 and ::1, nothing else", () => {
  for (
    const url of [
      "http://localhost:8080/v1",
      "http://LOCALHOST/v1",
      "http://127.0.0.1:11434/v1",
      "http://127.1.2.3/v1",
      "https://[::1]:8443/v1",
    ]
  ) assert.equal(isLoopbackUrl(url), true, url);
  for (
    const url of [
      "https://api.deepseek.com",
      "http://localhost.attacker.example/v1",
      "http://127.0.0.1.nip.io/v1",
      "http://128.0.0.1/v1",
      "http://[::2]/v1",
      "http://10.0.0.1/v1",
      "not a url",
    ]
  ) assert.equal(isLoopbackUrl(url), false, url);
});
