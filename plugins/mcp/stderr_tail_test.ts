import assert from "node:assert/strict";
import { StderrTail } from "./stderr_tail.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("the stderr tail keeps the most recent bytes within the bound and counts the rest", () => {
  const tail = new StderrTail(10);
  tail.append(bytes("0123456789"));
  tail.append(bytes("abcd"));
  assert.equal(tail.text(), "456789abcd");
  assert.equal(tail.dropped, 4);
  tail.append(bytes("x".repeat(25)));
  assert.equal(tail.text(), "x".repeat(10));
  assert.equal(tail.dropped, 29);
});

Deno.test("the stderr tail's last lines are non-blank, cut short and escaped", () => {
  const tail = new StderrTail();
  tail.append(bytes("one\n\ntwo\r\nthree \u001b[2J\u0007\n\n"));
  assert.deepEqual(tail.lastLines(2), ["two", "three \\u001b[2J\\u0007"]);
  tail.append(bytes("y".repeat(300)));
  assert.equal(tail.lastLines(1)[0], `${"y".repeat(240)}…`);
});
