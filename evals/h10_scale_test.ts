/**
 * The lab h10-scale, offline: the real `deno task eval` runs its conditions on the real port
 * task against the scripted model (scalePolicy), with the inventory server's size set by each
 * condition's overlay: eager loading, today's list and search mode at 10, 300 and 3,000 tools.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { REPO_ROOT, scriptedModel } from "../tests/_helpers.ts";
import { evalCli, evalDirs, readJson, TASK } from "./_eval_helpers.ts";
import { scalePolicy } from "./testdata/h10_scale_model.ts";

const SIZES = [10, 300, 3000];

/** Tools the inventory server listed in a run (all pages of its tools/list answers). */
async function listedByServer(runDir: string): Promise<number> {
  const lines = (await Deno.readTextFile(`${runDir}/raw/mcp-server-events.jsonl`)).split("\n");
  return lines.filter(Boolean).map((line) => JSON.parse(line))
    .filter((line) => line.direction === "sent" && Array.isArray(line.message.result?.tools))
    .reduce((sum, line) => sum + line.message.result.tools.length, 0);
}

/** MCP tool names offered in a run's first model request. */
async function firstOffered(runDir: string): Promise<string[]> {
  const first = JSON.parse(
    (await Deno.readTextFile(`${runDir}/raw/requests.jsonl`)).split("\n")[0]!,
  );
  return (first.request.tools ?? []).map((tool: { function: { name: string } }) =>
    tool.function.name
  ).filter((name: string) => name.startsWith("mcp__"));
}

Deno.test("h10-scale: each size and mode runs offline and passes through MCP", async () => {
  const modes = ["eager", "list", "search"];
  await using dirs = await evalDirs();
  const lab = parseYaml(await Deno.readTextFile(`${REPO_ROOT}/evals/labs/h10-scale.yaml`));
  lab.repetitions = 1;
  await Deno.writeTextFile(`${dirs.evals}/labs/h10-scale.yaml`, stringifyYaml(lab));
  await using model = scriptedModel(Array.from({ length: 200 }, () => scalePolicy));
  const conditions = SIZES.flatMap((size) => modes.map((mode) => `variant-${mode}-${size}`));
  const result = await evalCli(
    ["h10-scale", "--conditions", conditions.join(","), "--base-url", model.url],
    dirs,
  );
  equal(result.code, 0, result.stderr);
  match(
    result.stdout,
    new RegExp(`h10-scale \\[SCRIPTED MODEL[^\\]]*\\] · ${conditions.length} runs · all valid`),
  );
  for (const condition of conditions) {
    const size = Number(condition.split("-").at(-1));
    const dir = `${dirs.results}/h10-scale/h10-scale-${TASK}-${condition}-01`;
    equal((await readJson(`${dir}/verdict.json`)).overall, "pass", condition);
    // The overlay's configuration is the one the run got, and the one its pin names.
    const config = await readJson(`${dir}/workspace/.hel/mcp.json`);
    deepEqual(config.servers.inventory.args.slice(1), ["--extra-tools", String(size - 2)]);
    const listed = await listedByServer(dir);
    equal(listed, size, `${condition}: tools the server listed`);
    const offered = await firstOffered(dir);
    if (condition.includes("eager")) equal(offered.length, listed, `${condition}: all offered`);
    else deepEqual(offered, [], `${condition}: no definition up front`);
  }
  const report = await Deno.readTextFile(`${dirs.results}/h10-scale/report.md`);
  for (const condition of conditions) {
    match(report, new RegExp(`\\| ${condition} \\| ${TASK} \\| 1/1 \\|`));
  }
});

Deno.test("a condition naming an overlay the task lacks stops before any run, naming the folder", async () => {
  await using dirs = await evalDirs((lab) => {
    const conditions = lab.conditions as { name: string; settings: Record<string, unknown> }[];
    lab.conditions = [{
      ...conditions[1]!,
      settings: { ...conditions[1]!.settings, overlay: "nope" },
    }];
  });
  const result = await evalCli(["run", "h10", "--base-url", "http://127.0.0.1:9/v1"], dirs);
  equal(result.code, 2);
  equal(
    result.stderr,
    `eval: condition variant: overlay "nope" needs the folder ${dirs.evals}/tasks/${TASK}/` +
      `overlays/nope in task ${TASK}; add it or drop the overlay\n`,
  );
});

Deno.test("h10-scale --dry-run checks each pin against its overlay's mcp.json, as a run does", async () => {
  await using dirs = await evalDirs();
  await Deno.copyFile(
    `${REPO_ROOT}/evals/labs/h10-scale.yaml`,
    `${dirs.evals}/labs/h10-scale.yaml`,
  );
  const plan = await evalCli(["run", "h10-scale", "--dry-run"], dirs, { DEEPSEEK_API_KEY: "" });
  equal(plan.code, 0, plan.stderr);
  match(plan.stdout, /dry run: 27 run\(s\) would be made, 0 reused/);
});
