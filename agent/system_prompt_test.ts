import assert from "node:assert/strict";
import type { Plugin } from "../core/plugin.ts";
import { buildSystemPrompt } from "./system_prompt.ts";

const ENVIRONMENT = { os: "linux 6.1 (x86_64)", cwd: "/work/p", date: "2026-01-02" };

function build(plugins: Plugin[], environment: typeof ENVIRONMENT | null = ENVIRONMENT) {
  const failures: string[] = [];
  const text = buildSystemPrompt({
    environment: environment ?? undefined,
    contextFile: undefined,
    plugins,
    onPluginError: (plugin, error) => failures.push(`${plugin.name}: ${(error as Error).message}`),
  });
  return { text, failures };
}

Deno.test("plugins' environment lines follow the OS line of the Environment block", () => {
  const { text } = build([
    { name: "shell", description: "d", environmentLines: () => ["Shell: bash"] },
    { name: "none", description: "d" },
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
      description: "d",
      environmentLines: () => {
        throw new Error("no shell");
      },
    },
    { name: "shell", description: "d", environmentLines: () => ["Shell: bash"] },
  ]);
  assert.match(text, /- OS: linux 6\.1 \(x86_64\)\n- Shell: bash\n- Working directory/);
  assert.deepEqual(failures, ["bad: no shell"]);
});

Deno.test("without the Environment block (--no-env) plugins' lines are left out too", () => {
  const shell: Plugin = {
    name: "shell",
    description: "d",
    environmentLines: () => ["Shell: bash"],
  };
  const { text } = build([shell], null);
  assert.doesNotMatch(text, /Environment:|Shell:/);
});
