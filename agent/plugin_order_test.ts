/**
 * The ready phase in a real run: the skills plugin finds out whether `read_file` is offered
 * after every plugin is set up, so it works whether deno.json lists it before or after tools.
 */
import assert from "node:assert/strict";
import { startRun } from "./run.ts";
import type { Plugin, PluginContext } from "../core/plugin.ts";
import type { HelEvent } from "../core/events.ts";
import { scriptedClient } from "../fixtures/scripted_client.ts";
import { createTrustFileStore } from "../kit/mod.ts";
import skills from "../plugins/skills/mod.ts";
import tools from "../plugins/tools/mod.ts";

const SKILL = "---\nname: deploy\ndescription: How to deploy\n---\nRun make deploy.\n";

for (const order of [["tools", "skills"], ["skills", "tools"]]) {
  Deno.test(`skills are listed and loaded with plugins in the order ${order.join(", ")}`, async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-order-" }));
    const project = `${root}/project`;
    await Deno.mkdir(`${project}/.agents/skills/deploy`, { recursive: true });
    await Deno.mkdir(`${root}/home`);
    await Deno.writeTextFile(`${project}/.agents/skills/deploy/SKILL.md`, SKILL);
    const model = scriptedClient([
      { toolCalls: [{ name: "read_file", arguments: { path: ".agents/skills/deploy/SKILL.md" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: ".agents/skills/deploy/SKILL.md" } }] },
      { text: "done" },
    ]);
    const warnings: string[] = [];
    const context: PluginContext = {
      project,
      helHome: `${root}/home`,
      flags: {},
      log: { warn: (text) => warnings.push(text), info: () => {} },
      interactive: false,
      ask: () => Promise.resolve(undefined),
      trust: createTrustFileStore(`${root}/home`, (text) => warnings.push(text)),
      childEnv: () => ({ PATH: Deno.env.get("PATH") ?? "" }),
    };
    const byName: Record<string, Plugin> = { tools: tools(), skills: skills() };
    const events: HelEvent[] = [];
    let shutdown = () => Promise.resolve();
    try {
      const run = await startRun({
        model: "m",
        baseUrl: "http://127.0.0.1:9/v1",
        access: "auto",
        env: false,
        contextFile: false,
        maxTurns: 5,
        spill: false,
      }, {
        context,
        plugins: order.map((name) => byName[name]!),
        approver: { approve: () => Promise.resolve({ approval: "approved" }) },
        model: () => model,
        emit: (event) => events.push(event),
        onShutdownReady: (ready) => shutdown = ready,
      });
      const outcome = await run.turn("deploy it", new AbortController().signal);
      assert.equal(outcome.termination, "completed");
      const system = model.requests[0]!.messages[0].content as string;
      assert.match(system, /<available-skills>[\s\S]*"name": "deploy"/);
      // The second whole read is answered by the skills plugin: it tracked the first one.
      const reads = model.requests[2]!.messages.filter((m) => m.role === "tool");
      assert.match(reads[0].content, /Run make deploy\./);
      assert.match(reads[1].content, /already loaded in the current context/);
      assert.deepEqual(events.filter((e) => e.type === "warning"), []);
    } finally {
      await shutdown();
      await Deno.remove(root, { recursive: true });
    }
  });
}
