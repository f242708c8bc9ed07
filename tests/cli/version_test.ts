/**
 * `hel --version [--json]` from source, as a user runs it: the version, hel's own commit (not
 * the commit of the project it runs in), no build date, the Deno version, "source".
 * The compiled binary's report is checked in binary_test.ts.
 */
import assert from "node:assert/strict";
import { REPO_ROOT, runHel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";

const denoJson = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`));

async function git(cwd: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  return new TextDecoder().decode(output.stdout).trim();
}

/** hel's commit when its folder is a checkout of its own (CI's clone), else "unknown". */
async function expectedCommit(): Promise<string> {
  const top = await git(REPO_ROOT, "rev-parse", "--show-toplevel");
  const same = top !== "" && await Deno.realPath(top) === await Deno.realPath(REPO_ROOT);
  return same ? await git(REPO_ROOT, "rev-parse", "HEAD") : "unknown";
}

Deno.test("hel --version from source: version, hel's commit, Deno, source", async () => {
  // The project is a repository of its own: its commit must not be reported as hel's.
  await using project = await tempProject({ "a.txt": "a" });
  await git(project.project, "init", "-q");
  await git(project.project, "add", ".");
  await git(project.project, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x");
  const result = await runHel(["--version"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    `hel ${denoJson.version}\ncommit  ${await expectedCommit()}\n` +
      `built   - (running from source)\ndeno    ${Deno.version.deno}\n` +
      `mode    source (${Deno.build.target})\n`,
  );
  assert.equal(result.stderr, "");
});

Deno.test("hel --json -v: the same facts as one JSON object", async () => {
  await using project = await tempProject();
  const result = await runHel(["--json", "-v"], { cwd: project.project });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    name: "hel",
    version: denoJson.version,
    commit: await expectedCommit(),
    buildDate: null,
    deno: Deno.version.deno,
    compiled: false,
    target: Deno.build.target,
  });
});

Deno.test("hel --version without git on PATH: the commit is unknown", async () => {
  await using project = await tempProject();
  const result = await runHel(["--version", "--json"], {
    cwd: project.project,
    env: { PATH: "" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).commit, "unknown");
});

Deno.test("--version among other flags prints the same report through the command line", async () => {
  await using project = await tempProject();
  const alone = await runHel(["--version"], { cwd: project.project });
  const among = await runHelInProcess(["--model", "m", "--version"], { cwd: project.project });
  assert.equal(among.code, 0, among.stderr);
  assert.match(among.stdout, /^hel \S+\ncommit {2}/);
  assert.equal(among.stdout, alone.stdout);
  const json = await runHelInProcess(["--model", "m", "--version", "--json"], {
    cwd: project.project,
  });
  assert.equal(json.code, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).name, "hel");
});

Deno.test("hel --version: the git it asks for the commit does not get the model API key", async () => {
  await using project = await tempProject();
  // A git that records the environment it was given, then answers as git would not (unknown).
  const bin = `${project.project}/bin`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(`${bin}/git`, `#!/bin/sh\nenv > "${project.project}/git-env"\n`, {
    mode: 0o755,
  });
  const result = await runHel(["--version", "--json"], {
    cwd: project.project,
    env: { PATH: `${bin}:/usr/bin:/bin`, HEL_API_KEY: "sk-version-secret" },
  });
  assert.equal(result.code, 0, result.stderr);
  const seen = await Deno.readTextFile(`${project.project}/git-env`);
  assert.match(seen, /^PATH=/m, "the fake git ran");
  assert.doesNotMatch(seen, /sk-version-secret/);
});
