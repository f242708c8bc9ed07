import assert from "node:assert/strict";
import { OVERSIZE_CODE, oversizeAnswers } from "./oversize.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const server = { name: "docs", maxMessageBytes: 1024 * 1024 };
const pending = new Map<string | number, string>([[4, "tools/call"], [5, "resources/read"]]);
const ids = (outcome: ReturnType<typeof oversizeAnswers>) =>
  outcome?.answers.map((answer) => (answer as { id: number }).id);

Deno.test("the request the skipped answer names fails, with the server, size and setting", () => {
  const outcome = oversizeAnswers(
    {
      head: bytes('{"jsonrpc":"2.0","id":4,"result":{"content":[{"te'),
      tail: bytes(""),
      size: 3e6,
    },
    pending,
    server,
    true,
  );
  assert.deepEqual(ids(outcome), [4]);
  const error = (outcome!.answers[0] as { error: { code: number; message: string } }).error;
  assert.equal(error.code, OVERSIZE_CODE);
  assert.equal(
    error.message,
    'MCP server docs answered tools/call with 2.9 MiB, more than the 1 MiB hel reads from it ("maxMessageBytes" in its mcp.json entry), so hel skipped the answer and this request failed; the server stays connected. Ask for less (a narrower query, a smaller range or page), or continue without this result; the user can raise maxMessageBytes.',
  );
});

Deno.test("without a readable id of a waiting request, every waiting request fails, once the line ends", () => {
  const unreadable = { head: bytes('{"result":{"text":"xxxx'), tail: bytes('xxxx"}}'), size: 3e6 };
  // While the line is still coming nothing fails: its end may name the request.
  assert.equal(oversizeAnswers(unreadable, pending, server, false), undefined);
  assert.deepEqual(ids(oversizeAnswers(unreadable, pending, server, true)), [4, 5]);
  // An id that names no waiting request counts as unreadable.
  const stranger = {
    head: bytes('{"jsonrpc":"2.0","id":99,"result":{'),
    tail: bytes(""),
    size: 3e6,
  };
  assert.deepEqual(ids(oversizeAnswers(stranger, pending, server, true)), [4, 5]);
});

Deno.test("the server's own oversized request or notification fails none of hel's calls", () => {
  const notification = {
    head: bytes('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"xx'),
    tail: bytes(""),
    size: 3e6,
  };
  assert.deepEqual(ids(oversizeAnswers(notification, pending, server, true)), []);
});
