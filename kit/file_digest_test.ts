import assert from "node:assert/strict";
import { fileStart, sha256OfFile } from "./file_digest.ts";
import { sha256Hex } from "./trust/file_store.ts";

Deno.test("sha256OfFile equals the digest of the whole bytes, and is undefined for no regular file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => i % 251);
    await Deno.writeFile(`${dir}/big`, bytes);
    assert.equal(await sha256OfFile(`${dir}/big`), await sha256Hex(bytes));
    assert.equal(await sha256OfFile(`${dir}/missing`), undefined);
    assert.equal(await sha256OfFile(dir), undefined);
    const fifo = new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).outputSync();
    if (fifo.success) assert.equal(await sha256OfFile(`${dir}/pipe`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileStart reads at most the bytes asked for of a huge sparse file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = await Deno.open(`${dir}/sparse`, { write: true, create: true });
    await file.truncate(8 * 1024 * 1024 * 1024);
    file.close();
    const start = await fileStart(`${dir}/sparse`, 1000);
    assert.equal(start?.bytes.length, 1000);
    assert.equal(start?.complete, false);
    await Deno.writeTextFile(`${dir}/small`, "echo hi\n");
    const small = await fileStart(`${dir}/small`, 1000);
    assert.equal(new TextDecoder().decode(small?.bytes), "echo hi\n");
    assert.equal(small?.complete, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
