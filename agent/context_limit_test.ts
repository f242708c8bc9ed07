import assert from "node:assert/strict";
import { boundedContextText } from "./context_limit.ts";
import type { FileReading } from "../core/file_reading.ts";

/** Words like those of the tools plugin, which offers file reading in hel runs. */
const READING: FileReading = {
  spilled: "",
  pruned: "",
  from: (path, line) => `read it with read_file (path ${path}, start_line ${line})`,
};

async function bounded(text: string, limit: number, reading: FileReading | null = READING) {
  const path = await Deno.makeTempFile();
  const warnings: string[] = [];
  try {
    await Deno.writeTextFile(path, text);
    const warn = (w: string) => warnings.push(w);
    const result = await boundedContextText(path, "HEL.md", warn, reading ?? undefined, limit);
    return { result, warnings, path };
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("a context file within the limit is read whole, without a warning", async () => {
  const { result, warnings } = await bounded("one\ntwo\n", 8);
  assert.equal(result, "one\ntwo\n");
  assert.deepEqual(warnings, []);
});

Deno.test("a longer context file is cut at a line break, with a note and a warning", async () => {
  const { result, warnings, path } = await bounded("one\ntwo\nthree\n", 10);
  assert.equal(
    result,
    "one\ntwo\n\n[HEL.md is 14 bytes; only the part above (at most 10 bytes) is shown here. " +
      "The rest is in the file: read it with read_file (path HEL.md, start_line 3) when you " +
      "need it.]\n",
  );
  assert.deepEqual(warnings, [
    `context file ${path} is 14 bytes, more than the 10 bytes hel sends to the model; it ` +
    "gets the first 10 bytes and a note that the rest is in the file. Shorten it to what " +
    "every request needs",
  ]);
});

Deno.test("a first line longer than the limit is cut whole code points", async () => {
  const { result } = await bounded("ééééé\n", 5); // two bytes each: 2.5 fit
  assert.match(result, /^éé\n\[HEL\.md is 11 bytes; .* \(path HEL\.md, start_line 1\)/);
});

Deno.test("with no plugin offering file reading, the note says where the rest starts", async () => {
  const { result } = await bounded("one\ntwo\nthree\n", 10, null);
  assert.equal(
    result,
    "one\ntwo\n\n[HEL.md is 14 bytes; only the part above (at most 10 bytes) is shown here. " +
      "The rest is in the file, from line 3 on.]\n",
  );
});
