/**
 * The reuse key's parts: what changes a task's or lab's version and what does not, the words
 * that say why a run is made again, token labels, and how the scripted model is recognised.
 */
import { deepEqual, equal, notEqual } from "node:assert/strict";
import type { RunRecord } from "../agent/record.ts";
import { scriptedModel } from "../tests/_helpers.ts";
import { evalDirs, TASK } from "./_eval_helpers.ts";
import { isScriptedModel } from "./endpoint.ts";
import { differences, labVersion, type RunInputs, taskVersion } from "./provenance.ts";
import { loadLab, loadTask } from "./spec.ts";
import { labelTokens } from "./tokens.ts";

Deno.test("task version: fixture bytes count, a server log or Python cache left by hand does not", async () => {
  await using dirs = await evalDirs();
  const fixture = `${dirs.evals}/tasks/${TASK}/fixture`;
  const before = await taskVersion(await loadTask(dirs.evals, TASK));
  await Deno.writeTextFile(`${fixture}/inventory-events.jsonl`, "{}\n");
  await Deno.mkdir(`${fixture}/.hel/mcp/__pycache__`);
  await Deno.writeTextFile(`${fixture}/.hel/mcp/__pycache__/inventory.pyc`, "x");
  equal(await taskVersion(await loadTask(dirs.evals, TASK)), before);
  await Deno.writeTextFile(`${fixture}/config.ini`, "port=7001\n", { append: true });
  notEqual(await taskVersion(await loadTask(dirs.evals, TASK)), before);
});

Deno.test("lab version: budget counts, repetitions and rubric do not", async () => {
  await using dirs = await evalDirs();
  const lab = await loadLab(dirs.evals, "h10");
  const base = await labVersion(lab);
  equal(await labVersion({ ...lab, repetitions: 7, rubric: {} }), base);
  notEqual(await labVersion({ ...lab, budget: { ...lab.budget, max_turns: 9 } }), base);
});

Deno.test("differences name what changed", () => {
  const inputs: RunInputs = {
    endpoint: { base_url: "http://a/v1", model: "m" },
    params: { max_turns: 8 },
    harness_build: "0.1.0+abc",
    task_version: "t",
    lab_version: "l",
    condition: { name: "variant", settings: { access: "auto" } },
  };
  deepEqual(differences(inputs, inputs), []);
  deepEqual(
    differences(inputs, {
      ...inputs,
      harness_build: "0.1.0+def",
      condition: { name: "variant", settings: { access: "confirm" } },
    }),
    ["hel 0.1.0+abc → 0.1.0+def", "condition settings"],
  );
});

function recordWith(status: "measured" | "unavailable", value: number | null): RunRecord {
  const metric = { value, status };
  return {
    usage: {
      input_tokens: metric,
      output_tokens: metric,
      cached_input_tokens: metric,
      model_calls: { value: 1, status: "measured" },
      wall_time_ms: { value: 5, status: "measured" },
    },
  } as RunRecord;
}

Deno.test("token labels: measured from a real server, estimated from the scripted one or from the log", async () => {
  const dir = await Deno.makeTempDir();
  try {
    equal(
      (await labelTokens(recordWith("measured", 100), dir, false)).input_tokens.status,
      "measured",
    );
    deepEqual(
      (await labelTokens(recordWith("measured", 100), dir, true)).input_tokens,
      { value: 100, status: "estimated" },
    );
    await Deno.mkdir(`${dir}/raw`);
    const line = {
      seq: 1,
      request: { messages: ["x".repeat(398)] },
      response: { content: "abcdef" },
    };
    await Deno.writeTextFile(`${dir}/raw/requests.jsonl`, JSON.stringify(line) + "\n");
    const usage = await labelTokens(recordWith("unavailable", null), dir, false);
    deepEqual(usage.input_tokens, { value: 104, status: "estimated" }); // 415 characters / 4, up
    deepEqual(usage.output_tokens, { value: 5, status: "estimated" }); // {"content":"abcdef"}
    equal(usage.cached_input_tokens.status, "unavailable");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the scripted model is recognised by its header; another server or none is not", async () => {
  await using model = scriptedModel([]);
  equal(await isScriptedModel(model.url), true);
  await using other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("no"),
  );
  equal(await isScriptedModel(`http://127.0.0.1:${other.addr.port}/v1`), false);
  equal(await isScriptedModel("http://127.0.0.1:1/v1"), false);
});
