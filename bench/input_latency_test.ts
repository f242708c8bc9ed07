import assert from "node:assert/strict";
import { formatInputLatency, inputLatency } from "./input_latency.ts";

Deno.test("bench input latency: each situation times every key and the table shows them", async () => {
  const rows = await inputLatency(3);
  assert.deepEqual(rows.map((row) => row.keys), [3, 3, 3]);
  for (const row of rows) {
    assert.ok(row.medianMs > 0 && row.medianMs < 5000, JSON.stringify(row));
    assert.ok(row.p95Ms >= row.medianMs, JSON.stringify(row));
  }
  const table = formatInputLatency(rows).join("\n\n");
  assert.match(table, /\| box holding 2,000 characters on 40 lines \| 3 \| \d+\.\d \| \d+\.\d \|/);
});
