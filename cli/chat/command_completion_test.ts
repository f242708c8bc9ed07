import assert from "node:assert/strict";
import { argumentBeingTyped, completedArgument } from "./command_completion.ts";

const greet = {
  name: "mcp__s__greet",
  summary: "greets",
  complete: () => Promise.resolve({ start: 0, values: [] }),
};

Deno.test("a command's argument is being typed only after its name, for a command that completes", () => {
  assert.equal(argumentBeingTyped("/mcp__s__greet Al", [greet])?.argument, "Al");
  assert.equal(argumentBeingTyped("/mcp__s__greet", [greet]), undefined);
  assert.equal(argumentBeingTyped("/help me", [{ name: "help", summary: "" }]), undefined);
  assert.equal(argumentBeingTyped("/mcp__s__greet a\nb", [greet]), undefined);
});

Deno.test("one completion replaces the word being typed, several their shared start", () => {
  assert.equal(
    completedArgument("g", "Bob Al", { start: 4, values: ["Alice"] }),
    "/g Bob Alice ",
  );
  assert.equal(
    completedArgument("g", "Bob A", { start: 4, values: ["Alice", "Albert"] }),
    "/g Bob Al",
  );
  assert.equal(completedArgument("g", "Al", { start: 0, values: ["Alice", "Albert"] }), "/g Al");
  assert.equal(completedArgument("g", "Zed", { start: 0, values: [] }), "/g Zed");
  assert.equal(
    completedArgument("g", "city=New", { start: 0, values: ['city="New York"'] }),
    '/g city="New York" ',
  );
});
