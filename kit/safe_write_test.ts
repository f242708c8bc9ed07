import assert from "node:assert/strict";
import {
  appendLine,
  makeFolderChain,
  openFileNoFollow,
  recheckFolders,
  UnsafePathError,
  writeFileAtomic,
  writeNewFile,
} from "./safe_write.ts";

/** A trusted root with an `outside/victim.txt` that no write may reach. */
async function layout() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-safe-write-" }));
  const root = `${base}/root`;
  const victim = `${base}/outside/victim.txt`;
  await Deno.mkdir(root);
  await Deno.mkdir(`${base}/outside`);
  await Deno.writeTextFile(victim, "precious\n");
  return {
    base,
    root,
    victim,
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

function refusesLink(path: string) {
  return (error: unknown) => {
    assert.ok(error instanceof UnsafePathError, String(error));
    assert.equal(error.path, path);
    assert.match(error.message, /a symbolic link was found there .*Remove the link/);
    return true;
  };
}

Deno.test("every writer refuses a file that is a link and leaves its target alone", async () => {
  await using dirs = await layout();
  const file = `${dirs.root}/logs/out.jsonl`;
  await Deno.mkdir(`${dirs.root}/logs`);
  await Deno.symlink(dirs.victim, file);
  await assert.rejects(writeFileAtomic(dirs.root, file, "x\n"), refusesLink(file));
  await assert.rejects(writeNewFile(dirs.root, file, "x\n"), refusesLink(file));
  await assert.rejects(appendLine(dirs.root, file, "x"), refusesLink(file));
  await assert.rejects(openFileNoFollow(dirs.root, file, { truncate: true }), refusesLink(file));
  assert.equal(await Deno.readTextFile(dirs.victim), "precious\n");
  assert.ok((await Deno.lstat(file)).isSymlink, "the link is left for the person to inspect");
});

Deno.test("a dangling link is refused, not used to create the file it names", async () => {
  await using dirs = await layout();
  const file = `${dirs.root}/.active`;
  const target = `${dirs.base}/outside/created`;
  await Deno.symlink(target, file);
  await assert.rejects(appendLine(dirs.root, file, "x"), refusesLink(file));
  await assert.rejects(openFileNoFollow(dirs.root, file, { read: true }), refusesLink(file));
  await assert.rejects(Deno.lstat(target), Deno.errors.NotFound);
});

Deno.test("a linked folder between the root and the file is refused", async () => {
  await using dirs = await layout();
  await Deno.mkdir(`${dirs.root}/rec`);
  await Deno.symlink(`${dirs.base}/outside`, `${dirs.root}/rec/raw`);
  const file = `${dirs.root}/rec/raw/victim.txt`;
  await assert.rejects(writeFileAtomic(dirs.root, file, "x"), refusesLink(`${dirs.root}/rec/raw`));
  await assert.rejects(
    writeNewFile(dirs.root, `${dirs.root}/rec/raw/new.txt`, "x"),
    refusesLink(`${dirs.root}/rec/raw`),
  );
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(`${dirs.base}/outside`))).map((e) => e.name),
    ["victim.txt"],
  );
});

Deno.test("folders are created below the root; a file where a folder goes is named", async () => {
  await using dirs = await layout();
  await writeFileAtomic(dirs.root, `${dirs.root}/a/b/c.json`, "{}\n");
  assert.equal(await Deno.readTextFile(`${dirs.root}/a/b/c.json`), "{}\n");
  assert.equal((await Deno.stat(`${dirs.root}/a/b`)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(`${dirs.root}/a/b/c.json`)).mode! & 0o777, 0o600);
  await Deno.writeTextFile(`${dirs.root}/file`, "");
  await assert.rejects(
    writeFileAtomic(dirs.root, `${dirs.root}/file/x`, ""),
    /cannot write under .*\/file: it is not a folder/,
  );
  await assert.rejects(makeFolderChain(dirs.root, dirs.base), /is not inside/);
});

Deno.test("writeFileAtomic replaces the file whole and leaves no temporary file", async () => {
  await using dirs = await layout();
  const file = `${dirs.root}/snapshot.json`;
  await writeFileAtomic(dirs.root, file, "one\n");
  await writeFileAtomic(dirs.root, file, new TextEncoder().encode("two\n"));
  assert.equal(await Deno.readTextFile(file), "two\n");
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(dirs.root))).map((e) => e.name),
    ["snapshot.json"],
  );
});

Deno.test("appendLine creates, then appends; it refuses a hard link, which a whole write replaces", async () => {
  await using dirs = await layout();
  const file = `${dirs.root}/log.jsonl`;
  await appendLine(dirs.root, file, "1");
  await appendLine(dirs.root, file, "2");
  assert.equal(await Deno.readTextFile(file), "1\n2\n");
  const linked = `${dirs.base}/outside/hard.txt`;
  await Deno.link(dirs.victim, linked);
  await assert.rejects(appendLine(dirs.base, linked, "x"), /it is a hard link shared/);
  assert.equal(await Deno.readTextFile(dirs.victim), "precious\n");
  // A rename replaces the name alone, so a whole-file write may replace a hard link.
  await writeFileAtomic(dirs.base, linked, "mine\n");
  assert.equal(await Deno.readTextFile(linked), "mine\n");
  assert.equal(await Deno.readTextFile(dirs.victim), "precious\n");
});

Deno.test("writeNewFile never replaces an existing file", async () => {
  await using dirs = await layout();
  await writeNewFile(dirs.root, `${dirs.root}/.gitignore`, "*\n");
  await assert.rejects(
    writeNewFile(dirs.root, `${dirs.root}/.gitignore`, "x"),
    Deno.errors.AlreadyExists,
  );
  assert.equal(await Deno.readTextFile(`${dirs.root}/.gitignore`), "*\n");
});

Deno.test("a folder swapped for a link after the check is caught before the rename", async () => {
  await using dirs = await layout();
  const checked = await makeFolderChain(dirs.root, `${dirs.root}/rec/raw`);
  await Deno.remove(`${dirs.root}/rec/raw`);
  await Deno.symlink(`${dirs.base}/outside`, `${dirs.root}/rec/raw`);
  await assert.rejects(recheckFolders(checked), refusesLink(`${dirs.root}/rec/raw`));
  await Deno.remove(`${dirs.root}/rec/raw`);
  // The new folder must not reuse the old one's inode, so the old one is only renamed away.
  await Deno.mkdir(`${dirs.root}/rec/kept`);
  await Deno.rename(`${dirs.base}/outside`, `${dirs.root}/rec/raw`);
  await assert.rejects(recheckFolders(checked), /the folder was replaced while hel wrote there/);
});

Deno.test("appends while another process swaps the file for a link never reach the target", async () => {
  await using dirs = await layout();
  const file = `${dirs.root}/permissions.jsonl`;
  // Swaps a plain file and a link to the victim at `file` as fast as it can, 5,000 times.
  const swapper = new Deno.Command("python3", {
    args: [
      "-c",
      "import os,sys\nf,v=sys.argv[1],sys.argv[2]\nfor i in range(5000):\n" +
      "  os.symlink(v,f+'.l'); os.replace(f+'.l',f)\n" +
      "  open(f+'.p','w').close(); os.replace(f+'.p',f)\n",
      file,
      dirs.victim,
    ],
  }).spawn();
  let refused = 0;
  const done = swapper.status;
  let finished = false;
  done.then(() => finished = true);
  while (!finished) {
    try {
      await appendLine(dirs.root, file, "line");
    } catch (error) {
      if (!(error instanceof UnsafePathError) && !(error instanceof Deno.errors.NotFound)) {
        throw error;
      }
      refused++;
    }
  }
  assert.equal((await done).code, 0);
  assert.equal(await Deno.readTextFile(dirs.victim), "precious\n");
  assert.ok(refused > 0, "the swapper never got in the way; the race was not exercised");
});
