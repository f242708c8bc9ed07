/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in deno.json)
 * against hel: every client scenario the pinned suite lists is run, all at once in one run of
 * the suite (`--suite all`); the suite starts each scenario's HTTP server and runs
 * tests/mcp/conformance_client.ts with its URL, which runs `hel mcp list --url` /
 * `hel mcp call --url` (on a pseudo-terminal for the question the elicitation scenario asks).
 * A scenario passes when its checks have no failure or warning and hel exited 0 (or the
 * scenario allows a client error: hel must refuse).
 *
 * Every scenario must pass but those in {@link EXPECTED_FAILURES}; one of those that passes fails
 * the test too, so the list can only shrink. A table of scenario → result is printed.
 *
 * The suite's CLI needs Node 22+ or Deno; it runs here under Deno (`deno run npm:...`), fetched
 * from npm once (set HEL_SKIP_NPM_TESTS=1 to skip).
 *
 * @module
 */
import assert from "node:assert/strict";
import { REPO_ROOT, runCommand, tempProject } from "../_helpers.ts";
import { ignoreNpm as ignore } from "../_npx.ts";

/** The pinned suite, as deno.json pins it (`npm:@modelcontextprotocol/conformance@<version>`). */
const SUITE: string = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`))
  .imports["@modelcontextprotocol/conformance"];

/**
 * The scenarios hel is known to fail, and why: none now. Add one only with the reason; remove it
 * as soon as it passes (the test fails while a scenario listed here passes). A browser-login auth
 * scenario runs `hel mcp login --url` (the browser a script that follows the redirects) and then
 * the call; a client-credentials or cross-app-access one only the call, with its grant's flags
 * (tests/mcp/conformance_client.ts).
 */
const EXPECTED_FAILURES: Record<string, string> = {};

/** The client command: the suite splits it at spaces and adds the server's URL. */
const CLIENT = [Deno.execPath(), "run", "--allow-all", "--no-check", "--quiet"]
  .concat(`${REPO_ROOT}/tests/mcp/conformance_client.ts`).join(" ");

/** One scenario's outcome. */
interface Outcome {
  scenario: string;
  passed: boolean;
  /** The suite's count ("3/3 checks"), and the checks that failed or warned. */
  detail: string;
}

async function suite(args: string[], cwd: string, env: Record<string, string>) {
  const result = await runCommand(
    Deno.execPath(),
    ["run", "--allow-all", "--quiet", "--config", `${REPO_ROOT}/deno.json`, SUITE, ...args],
    { cwd, env },
  );
  return { code: result.code, text: result.stdout + result.stderr };
}

/** The client scenarios of the pinned suite, as `conformance list --client` names them. */
async function clientScenarios(cwd: string): Promise<string[]> {
  const { code, text } = await suite(["list", "--client"], cwd, {});
  assert.equal(code, 0, text);
  return [...text.matchAll(/^ {2}- (\S+) \[/gm)].map((match) => match[1]!);
}

/** The checks the suite wrote for one run (`<out>/<scenario>-<time>/checks.json`). */
async function checksIn(folder: string): Promise<{ id: string; status: string }[]> {
  for await (const entry of Deno.readDir(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isFile && entry.name === "checks.json") {
      return JSON.parse(await Deno.readTextFile(path));
    }
    if (entry.isDirectory) {
      const found = await checksIn(path);
      if (found.length > 0) return found;
    }
  }
  return [];
}

/**
 * The scenarios in which the client is expected to give up (the suite's `allowClientError`):
 * hel refusing ends with a non-zero status there, as it should.
 */
const CLIENT_ERROR_ALLOWED = new Set(["auth/scope-retry-limit", "auth/resource-mismatch"]);

/**
 * Scenarios whose checks time hel (`sse-retry`: did the client wait the `retry` the server
 * asked for, within a tolerance): run alone as well, since with every scenario sharing two
 * cores the timing measures the machine; their verdict is the solo run's.
 */
const TIMED = new Set(["sse-retry"]);

/** One run of the suite's client command (`selection`: `--suite all` or `--scenario X`). */
async function runSuite(selection: string[], root: string, cwd: string) {
  const out = await Deno.makeTempDir({ dir: root, prefix: "results-" });
  const exits = await Deno.makeTempDir({ dir: root, prefix: "exits-" });
  const env = {
    HEL_HOME: `${root}/hel-home`,
    HEL_API_KEY: "test-key",
    NO_COLOR: "1",
    HEL_CONFORMANCE_EXITS: exits,
  };
  // All scenarios share two cores: a generous bound, which only a hung client reaches.
  const args = ["client", "--command", CLIENT, ...selection, "--timeout", "120000", "-o", out];
  const { text } = await suite(args, cwd, env);
  return { out, exits, text };
}

/** A scenario's outcome from its checks and hel's exit status. */
async function judge(run: { out: string; exits: string }, scenario: string): Promise<Outcome> {
  const checks = await checksOf(run.out, scenario);
  const status = await Deno.readTextFile(`${run.exits}/${encodeURIComponent(scenario)}`)
    .then(Number, () => undefined);
  const bad = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
  const passedChecks = checks.filter((check) => check.status === "SUCCESS").length;
  const exitOk = status === 0 || (status !== undefined && CLIENT_ERROR_ALLOWED.has(scenario));
  const notes = [`${passedChecks}/${passedChecks + bad.length} checks`];
  if (TIMED.has(scenario)) notes.push("run alone");
  if (status === undefined) notes.push("hel's exit status not recorded (timed out?)");
  else if (status !== 0) notes.push(`hel exited ${status}`);
  if (bad.length > 0) {
    const names = bad.slice(0, 3).map((check) => `${check.id} ${check.status}`);
    notes.push(names.join(", ") + (bad.length > 3 ? `, +${bad.length - 3}` : ""));
  }
  const passed = checks.length > 0 && passedChecks > 0 && bad.length === 0 && exitOk;
  return { scenario, passed, detail: notes.join("; ") };
}

/** Every scenario at once (`--suite all`), the timed ones alone too: each one's outcome. */
async function runAll(scenarios: string[], root: string, cwd: string): Promise<Outcome[]> {
  const all = await runSuite(["--suite", "all"], root, cwd);
  const outcomes: Outcome[] = [];
  const texts = [all.text];
  for (const scenario of scenarios) {
    if (!TIMED.has(scenario)) {
      outcomes.push(await judge(all, scenario));
      continue;
    }
    const alone = await runSuite(["--scenario", scenario], root, cwd);
    texts.push(alone.text);
    outcomes.push(await judge(alone, scenario));
  }
  if (outcomes.some((outcome) => !outcome.passed)) console.log(texts.join("\n"));
  return outcomes;
}

/** A scenario's checks: `<out>/<scenario>-<time>/checks.json` (the name may hold a `/`). */
async function checksOf(out: string, scenario: string) {
  const [parent, base] = scenario.includes("/")
    ? [`${out}/${scenario.slice(0, scenario.lastIndexOf("/"))}`, scenario.split("/").at(-1)!]
    : [out, scenario];
  const time = /^-\d{4}-\d{2}-\d{2}T/;
  try {
    for await (const entry of Deno.readDir(parent)) {
      if (
        entry.isDirectory && entry.name.startsWith(base) &&
        time.test(entry.name.slice(base.length))
      ) {
        return await checksIn(`${parent}/${entry.name}`);
      }
    }
  } catch {
    // No folder: the scenario never ran; no checks.
  }
  return [];
}

function table(outcomes: Outcome[]): string {
  const width = Math.max(...outcomes.map((outcome) => outcome.scenario.length));
  return outcomes.map((outcome) => {
    const expected = outcome.scenario in EXPECTED_FAILURES ? " (expected failure)" : "";
    const result = outcome.passed ? "pass" : "FAIL";
    return `${outcome.scenario.padEnd(width)}  ${result}${expected}  ${outcome.detail}`;
  }).join("\n");
}

Deno.test({
  name: "every client scenario of the MCP conformance suite passes against hel, but the listed",
  ignore,
  async fn() {
    await using project = await tempProject();
    const scenarios = await clientScenarios(project.project);
    for (const basic of ["initialize", "tools_call", "elicitation-sep1034-client-defaults"]) {
      assert.ok(scenarios.includes(basic), `the suite lists no ${basic}:\n${scenarios}`);
    }
    const unknown = Object.keys(EXPECTED_FAILURES).filter((name) => !scenarios.includes(name));
    assert.deepEqual(unknown, [], "EXPECTED_FAILURES names scenarios the suite does not have");

    const outcomes = await runAll(scenarios, project.root, project.project);
    console.log(`\nMCP conformance (${SUITE}), client scenarios:\n${table(outcomes)}\n`);

    const failing = outcomes.filter((o) => !o.passed && !(o.scenario in EXPECTED_FAILURES));
    const fixed = outcomes.filter((o) => o.passed && o.scenario in EXPECTED_FAILURES);
    assert.deepEqual(
      { failing: failing.map((o) => o.scenario), nowPassing: fixed.map((o) => o.scenario) },
      { failing: [], nowPassing: [] },
      "failing: scenarios hel must pass; nowPassing: remove them from EXPECTED_FAILURES",
    );
  },
});
