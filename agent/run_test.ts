/** Unit tests of the run's per-request tool list. */
import assert from "node:assert/strict";
import type { Plugin } from "../core/plugin.ts";
import { toolDefinitions } from "./run.ts";

Deno.test("toolDefinitions() skips a plugin that throws, with a warning, and keeps the others", () => {
  const definition = (name: string) => ({
    type: "function" as const,
    function: { name, description: name, parameters: { type: "object" } },
  });
  const plugins: Plugin[] = [
    {
      name: "broken",
      description: "",
      toolDefinitions: () => {
        throw new Error("not ready");
      },
    },
    { name: "fine", description: "", toolDefinitions: () => [definition("ext__a")] },
  ];
  const warnings: string[] = [];
  const names = toolDefinitions(new Map(), plugins, (text) => warnings.push(text))
    .map((d) => d.function.name);
  assert.deepEqual(names, ["ext__a"]);
  assert.deepEqual(warnings, ["plugin broken failed in toolDefinitions: not ready"]);
});
