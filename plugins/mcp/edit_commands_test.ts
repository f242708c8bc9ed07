import assert from "node:assert/strict";
import { entryProblems } from "./edit_commands.ts";

Deno.test("an entry's problems name the flag that gave the value, not a place in a file", () => {
  assert.deepEqual(entryProblems("ok", { command: "x", args: ["-y"], timeout: 5 }), []);
  assert.deepEqual(
    entryProblems("n", { command: "x", env: { "A-B": "1", K: "$HOME/x" }, timeout: 0 }),
    [
      '--env: "A-B" is not a valid variable name',
      '--env K is "$HOME/x", but hel expands only a whole value "${NAME}" (or ' +
      '"${NAME:-default}"), which passes hel\'s variable NAME on; write that, or the value itself',
      "--timeout must be a positive number of seconds (at most 86400), e.g. 120; leave it out " +
      "for the default of 300",
    ],
  );
  assert.deepEqual(entryProblems("a__b", { command: " " }), [
    `invalid MCP server name "a__b": use letters, digits, '-' and single '_' (no "__", no ` +
    `'_' first or last, no spaces or dots), e.g. "notes" or "issue-tracker"`,
    'the command after -- must be a non-empty string naming the program, e.g. "python3"',
  ]);
});
