import assert from "node:assert/strict";
import { PluginDriver, type StartedPlugin } from "../core/plugin_driver.ts";
import { buildSystemPrompt } from "./system_prompt.ts";

const ENVIRONMENT = { os: "linux 6.1 (x86_64)", cwd: "/work/p", date: "2026-01-02" };

function build(plugins: StartedPlugin[], environment: typeof ENVIRONMENT | null = ENVIRONMENT) {
  const failures: string[] = [];
  const driver = new PluginDriver((text) => failures.push(text), plugins);
  const text = buildSystemPrompt({
    environment: environment ?? undefined,
    contextFiles: [],
    // As the run does: the plugins' lines are asked for only with the Environment block.
    environmentLines: environment ? driver.environmentLines() : [],
    pluginSections: driver.systemSections(),
  });
  return { text, failures };
}

Deno.test("plugins' environment lines follow the OS line of the Environment block", () => {
  const { text } = build([
    { name: "shell", hooks: { environmentLines: () => ["Shell: bash"] } },
    { name: "none", hooks: {} },
  ]);
  assert.match(
    text,
    /\n\nEnvironment:\n- OS: linux 6\.1 \(x86_64\)\n- Shell: bash\n- Working directory: \/work\/p\n- Date: 2026-01-02$/,
  );
});

Deno.test("a plugin whose environment lines throw is reported and adds none", () => {
  const { text, failures } = build([
    {
      name: "bad",
      hooks: {
        environmentLines: () => {
          throw new Error("no shell");
        },
      },
    },
    { name: "shell", hooks: { environmentLines: () => ["Shell: bash"] } },
  ]);
  assert.match(text, /- OS: linux 6\.1 \(x86_64\)\n- Shell: bash\n- Working directory/);
  assert.deepEqual(failures, ["plugin bad failed in environmentLines: no shell"]);
});

Deno.test("without the Environment block (--no-env) plugins' lines are left out too", () => {
  const shell: StartedPlugin = {
    name: "shell",
    hooks: { environmentLines: () => ["Shell: bash"] },
  };
  const { text } = build([shell], null);
  assert.doesNotMatch(text, /Environment:|Shell:/);
});
