import assert from "node:assert/strict";
import { failureText } from "./remote_refusal.ts";

Deno.test("failureText: a client bound elsewhere names both servers, printable and bounded", () => {
  const far = `https://evil.example/${"x".repeat(300)}`;
  const text = failureText(
    new Error(
      "OAuth client information is bound to authorization server https://auth.example/\x1b[2J " +
        `and is not presented to ${far}. Register the client again.`,
    ),
  );
  assert.match(
    text,
    /^the server sends hel to the authorization server https:\/\/evil\.example\/x+, /,
  );
  assert.match(text, /belong to https:\/\/auth\.example\/\[2J \("oauth\.issuer"/);
  assert.ok(!text.includes("\x1b"), "no escape reaches the terminal");
  assert.ok(!text.includes("x".repeat(200)), "the address is cut");
});
