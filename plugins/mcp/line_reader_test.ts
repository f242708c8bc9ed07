import assert from "node:assert/strict";
import { LineReader, type ReadLine } from "./line_reader.ts";
import { skippedKind } from "./message_size.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const lines = (read: ReadLine[]) =>
  read.map((r) => "line" in r ? r.line : "skipped" in r ? "!" : "?");

Deno.test("lines split at LF (CR dropped), across chunks and several to a chunk", () => {
  const reader = new LineReader(1024);
  assert.deepEqual(lines(reader.push(bytes('{"a":'))), []);
  assert.deepEqual(lines(reader.push(bytes('1}\r\n{"b":2}\n{"c"'))), ['{"a":1}', '{"b":2}']);
  assert.deepEqual(lines(reader.push(bytes(":3}\n"))), ['{"c":3}']);
  assert.deepEqual(lines(reader.push(bytes("\n"))), [""]);
});

Deno.test("a multi-byte character split between chunks is decoded whole", () => {
  const reader = new LineReader(1024);
  const all = bytes('"é€"\n');
  assert.deepEqual(lines(reader.push(all.subarray(0, 2))), []);
  assert.deepEqual(lines(reader.push(all.subarray(2))), ['"é€"']);
});

Deno.test("a line over the bound is skipped to its end, keeping only its ends; the next is read", () => {
  const reader = new LineReader(100);
  const big = `{"jsonrpc":"2.0","id":7,"result":{"text":"${"x".repeat(10_000)}"}}`;
  const read: ReadLine[] = [];
  for (let at = 0; at < big.length; at += 64) {
    read.push(...reader.push(bytes(big.slice(at, at + 64))));
  }
  // Told once when it goes over (with the head), nothing while it is skipped.
  assert.equal(read.length, 1);
  assert.ok("over" in read[0]!);
  const after = reader.push(bytes('\n{"ok":1}\n'));
  assert.equal(after.length, 2);
  const skipped = (after[0] as { skipped: { head: Uint8Array; tail: Uint8Array; size: number } })
    .skipped;
  assert.equal(skipped.size, big.length);
  assert.ok(skipped.head.length <= 4096 && skipped.tail.length <= 256);
  assert.ok(text(skipped.tail).endsWith('x"}}'));
  assert.deepEqual(skippedKind(skipped), { kind: "answer", id: 7 });
  assert.deepEqual(after[1], { line: '{"ok":1}' });
});

Deno.test("the id of a skipped answer is read from its head or its tail, never from inside", () => {
  const kind = (head: string, tail = "") =>
    skippedKind({ head: bytes(head), tail: bytes(tail), size: 1e9 });
  // Python and Go servers put the id first.
  assert.deepEqual(kind('{"jsonrpc": "2.0", "id": "a-1", "result": {"con'), {
    kind: "answer",
    id: "a-1",
  });
  // The TypeScript SDK puts it after the result.
  assert.deepEqual(
    kind('{"result":{"content":[{"type":"text","text":"xx', 'xxx"}]},"jsonrpc":"2.0","id":12}\r'),
    {
      kind: "answer",
      id: 12,
    },
  );
  // An "id" inside the result is not the message's.
  assert.deepEqual(kind('{"result":{"id":5,"text":"xx', 'xx","item":{"id":9}}}'), {
    kind: "unknown",
  });
  assert.deepEqual(kind('{"result":{"id":5,"text":"xxxx'), { kind: "unknown" });
  assert.deepEqual(kind('{"method":"notifications/message","params":{"data":"xx'), {
    kind: "request-or-notification",
  });
  assert.deepEqual(kind("not json at all"), { kind: "unknown" });
});

Deno.test("a 20 MiB line that comes in 64 KiB chunks is read whole", () => {
  const reader = new LineReader(64 * 1024 * 1024);
  const chunk = new Uint8Array(64 * 1024).fill(120);
  let read: ReadLine[] = [];
  for (let i = 0; i < 320; i++) read = reader.push(chunk);
  assert.equal(read.length, 0);
  read = reader.push(bytes("\n"));
  assert.equal((read[0] as { line: string }).line.length, 20 * 1024 * 1024);
});

Deno.test("a line that comes a byte at a time holds about its size, not a read buffer a byte", async () => {
  // Deno hands each read of a pipe out as a view of a fresh 64 KiB buffer: a server that writes
  // its line a byte at a time must not make hel keep 64 KiB for each byte (2,000 bytes here).
  const script = `
    const { LineReader } = await import(${JSON.stringify(import.meta.resolve("./line_reader.ts"))});
    const reader = new LineReader(64 * 1024 * 1024);
    globalThis.gc();
    const before = Deno.memoryUsage().external;
    for (let i = 0; i < 2000; i++) reader.push(new Uint8Array(new ArrayBuffer(65536), 0, 1).fill(97));
    // Buffers are freed after a turn of the event loop.
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    console.log(Deno.memoryUsage().external - before);
    reader.push(new Uint8Array([10]));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--expose-gc", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(out.success);
  const held = Number(text(out.stdout).trim());
  assert.ok(held < 8 * 1024 * 1024, `the partial line holds ${held} bytes`);
});

Deno.test("a piece of a line is not a view of a buffer its reader may fill again", () => {
  const reader = new LineReader(1024);
  const buffer = new Uint8Array(64);
  buffer.set(bytes('{"a":'));
  reader.push(buffer.subarray(0, 5));
  buffer.set(bytes("XXXXX"));
  assert.deepEqual(lines(reader.push(bytes("1}\n"))), ['{"a":1}']);
});
