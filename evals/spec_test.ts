import { deepEqual, equal, rejects } from "node:assert/strict";
import { stringify as stringifyYaml } from "yaml";
import { REPO_ROOT } from "../tests/_helpers.ts";
import { experimentId, loadLab, loadTask, SpecError } from "./spec.ts";
import { settingsFlags } from "./hel_driver.ts";
import { planRuns, selectConditions } from "./runner.ts";
import { copyTree } from "./workspace.ts";

const EVALS = `${REPO_ROOT}/evals`;

async function withLab(lab: unknown, body: (evals: string) => Promise<void>) {
  const evals = await Deno.makeTempDir({ prefix: "hel-spec-test-" });
  try {
    await Deno.mkdir(`${evals}/labs`);
    await Deno.writeTextFile(`${evals}/labs/h10.yaml`, stringifyYaml(lab));
    await body(evals);
  } finally {
    await Deno.remove(evals, { recursive: true });
  }
}

Deno.test("the h10 lab and task load; conditions become the issue's hel flags", async () => {
  const lab = await loadLab(EVALS, "h10");
  const task = await loadTask(EVALS, "mcp-port-lookup-01");
  equal(experimentId(lab), "h10");
  equal(lab.repetitions, 3);
  deepEqual(lab.budget, { max_turns: 8, timeout_seconds: 120, max_output_tokens: 8192 });
  const [baseline, variant] = lab.conditions;
  deepEqual(settingsFlags(baseline!.settings), [
    "--without",
    "mcp",
    "--tools",
    "read_file,search_replace",
    "--access",
    "auto",
    "--no-context-file",
    "--no-compaction",
  ]);
  deepEqual(settingsFlags(variant!.settings), settingsFlags(baseline!.settings).slice(2));
  deepEqual(task.checks.map((check) => check.type), [
    "file_exact_match",
    "tool_calls",
    "mcp_usage",
  ]);
  // Interleaved: each repetition runs every condition before the next repetition starts.
  deepEqual(planRuns(lab, [task], lab.conditions).map((run) => run.runId), [
    "h10-mcp-port-lookup-01-baseline-01",
    "h10-mcp-port-lookup-01-variant-01",
    "h10-mcp-port-lookup-01-baseline-02",
    "h10-mcp-port-lookup-01-variant-02",
    "h10-mcp-port-lookup-01-baseline-03",
    "h10-mcp-port-lookup-01-variant-03",
  ]);
});

Deno.test("a bad lab names the file, the field and the fix", async () => {
  const lab = {
    lab: "h10",
    title: "t",
    model: { provider: "p", id: "m", base_url: "https://example.com", params: { temperature: 0 } },
    budget: { max_turns: 0, timeout_seconds: 1, max_output_tokens: 1 },
    conditions: [{ name: "other", settings: { toolz: [] } }],
    tasks: ["x"],
    repetitions: 1,
  };
  await withLab(lab, async (evals) => {
    const error = await loadLab(evals, "h10").then(() => undefined, (e) => e);
    equal(error instanceof SpecError, true);
    const message = (error as Error).message;
    equal(message.startsWith(`${evals}/labs/h10.yaml is not valid:`), true, message);
    for (
      const expected of [
        /model\.params: hel has no flag for extra model parameters yet/,
        /budget\.max_turns: /,
        /conditions\.0\.name: use "baseline", "variant" or "variant-<suffix>"/,
        /conditions\.0\.settings: .*toolz/,
      ]
    ) {
      equal(expected.test(message), true, `${expected} in ${message}`);
    }
  });
});

Deno.test("an unknown condition or lab is named with the ones that exist", async () => {
  const lab = await loadLab(EVALS, "h10");
  let message = "";
  try {
    selectConditions(lab, ["variant", "nope"]);
  } catch (error) {
    message = (error as Error).message;
  }
  equal(message, 'lab h10 has no condition named "nope" (conditions: baseline, variant)');
  await rejects(loadLab(EVALS, "h99"), /no lab named "h99" .*labs: .*h10/);
});

Deno.test("a task whose expected file is missing is refused before any run", async () => {
  const evals = await Deno.makeTempDir({ prefix: "hel-spec-test-" });
  try {
    await copyTree(`${EVALS}/tasks/mcp-port-lookup-01`, `${evals}/tasks/mcp-port-lookup-01`);
    await Deno.remove(`${evals}/tasks/mcp-port-lookup-01/expected/config.ini`);
    await rejects(
      loadTask(evals, "mcp-port-lookup-01"),
      /checks\.0\.expected_file: .*expected\/config\.ini does not exist/,
    );
  } finally {
    await Deno.remove(evals, { recursive: true });
  }
});
