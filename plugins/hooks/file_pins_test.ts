import assert from "node:assert/strict";
import { loadPins, savePins } from "./file_pins.ts";

Deno.test("pins are never written through a link planted in HEL_HOME", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-pins-" }));
  try {
    const home = `${base}/home`;
    await Deno.mkdir(home);
    await Deno.writeTextFile(`${base}/victim`, "precious\n");
    // A dangling lock link would have hel create the file it names.
    await Deno.symlink(`${base}/created`, `${home}/hook-files.lock`);
    await assert.rejects(
      savePins(home, "/p", { "a.sh": "00" }),
      /refused to write .*hook-files\.lock: a symbolic link was found there/,
    );
    await assert.rejects(Deno.lstat(`${base}/created`), Deno.errors.NotFound);
    await Deno.remove(`${home}/hook-files.lock`);
    await Deno.symlink(`${base}/victim`, `${home}/hook-files.json`);
    await assert.rejects(
      savePins(home, "/p", { "a.sh": "00" }),
      /refused to write .*hook-files\.json: a symbolic link was found there/,
    );
    assert.equal(await Deno.readTextFile(`${base}/victim`), "precious\n");
    await Deno.remove(`${home}/hook-files.json`);
    await savePins(home, "/p", { "a.sh": "00" });
    assert.deepEqual(await loadPins(home, "/p"), { "a.sh": "00" });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
