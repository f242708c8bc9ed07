import assert from "node:assert/strict";
import { didYouMean, jsoncProperties, parseJsoncConfig } from "./jsonc.ts";

const parse = (text: string, maxSyntaxErrors?: number) =>
  parseJsoncConfig(new TextEncoder().encode(text), "c.json", {
    emptyFix: "write {}",
    maxSyntaxErrors,
    syntaxFix: "fix it",
  });

Deno.test("comments and trailing commas parse; places are 1-based line:column", () => {
  const result = parse('// note\n{\n  "a": 1,\n  "b": [2,],\n}');
  assert.ok(result.ok);
  const [a, b] = jsoncProperties(result.root);
  assert.deepEqual([a?.name, b?.name], ["a", "b"]);
  assert.equal(result.at(a!.key.offset), "c.json:3:3");
  assert.equal(result.at(b!.value.offset), "c.json:4:8");
});

Deno.test("unusable text names the file, the place and the fix", () => {
  assert.deepEqual(parse(" \n"), { ok: false, problems: ["c.json: the file is empty; write {}"] });
  assert.deepEqual(parseJsoncConfig(new Uint8Array([0x7b, 0xff]), "c.json", { emptyFix: "" }), {
    ok: false,
    problems: ["c.json: not valid UTF-8 text; save the file as UTF-8"],
  });
  assert.deepEqual(parse('{"a": 1 "b": 2 "c": 3}'), {
    ok: false,
    problems: ['c.json:1:9: a "," is expected; fix it'],
  });
  const all = parse('{"a": 1 "b": 2 "c": 3}', 3);
  assert.equal(all.ok ? 0 : all.problems.length, 2);
});

Deno.test("nesting too deep for the parser is refused, not a crash", () => {
  const result = parse("[".repeat(100_000) + "]".repeat(100_000));
  assert.match(result.ok ? "" : result.problems[0]!, /^c\.json: cannot be parsed/);
});

Deno.test("did you mean names a field one or two edits away, ignoring case", () => {
  assert.equal(didYouMean("comand", ["args", "command"]), ' (did you mean "command"?)');
  assert.equal(didYouMean("COMMAND", ["command"]), ' (did you mean "command"?)');
  assert.equal(didYouMean("transport", ["command", "args"]), "");
});
