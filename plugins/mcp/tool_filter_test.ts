import assert from "node:assert/strict";
import { entryPattern, filterTools, unmatchedText } from "./tool_filter.ts";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
const names = (tools: unknown[]) => tools.map((t) => (t as { name: string }).name);

Deno.test("'*' matches any run of characters; everything else is literal", () => {
  const cases: [string, string, boolean][] = [
    ["read_*", "read_file", true],
    ["read_*", "read_", true],
    ["read_*", "xread_file", false],
    ["*_file", "read_file", true],
    ["r*d*e", "read_file", true],
    ["*", "anything at all", true],
    ["echo", "echo", true],
    ["echo", "echo2", false],
    ["echo", "Echo", false], // names are case-sensitive, as servers treat them
    ["a.b", "a.b", true],
    ["a.b", "axb", false], // "." is not a regex dot
    ["read_?", "read_x", false], // no "?" wildcard
    ["read_?", "read_?", true],
    ["[ab]", "a", false], // no character classes
    ["{a,b}", "{a,b}", true], // no braces
    ["a+(b)", "a+(b)", true],
  ];
  for (const [entry, name, expected] of cases) {
    assert.equal(entryPattern(entry).test(name), expected, `${entry} vs ${name}`);
  }
});

Deno.test("absent allowlist keeps every tool; an allowlist keeps matches, counts the rest", () => {
  const listed = ["echo", "fail", "fast", "slow", "a.b"].map(tool);
  assert.deepEqual(filterTools("t", listed, undefined), {
    kept: listed,
    leftOut: 0,
    unmatched: [],
  });
  const filtered = filterTools("t", [...listed, { inputSchema: {} }, "junk"], ["echo", "fa*"]);
  assert.deepEqual(names(filtered.kept), ["echo", "fail", "fast"]);
  assert.equal(filtered.leftOut, 4); // slow, a.b, and the two entries that are not named tools
  assert.deepEqual(filtered.unmatched, []);
});

Deno.test("1,000 tools cut to 3 is a count, not 997 of anything", () => {
  const listed = Array.from({ length: 1000 }, (_, i) => tool(`tool_${i}`));
  const filtered = filterTools("big", listed, ["tool_1", "tool_42", "tool_999"]);
  assert.deepEqual(names(filtered.kept), ["tool_1", "tool_42", "tool_999"]);
  assert.equal(filtered.leftOut, 997);
  assert.deepEqual(filtered.unmatched, []);
});

Deno.test("an entry matching nothing is reported once, with the closest names", () => {
  const listed = ["echo", "read_file", "read_dir", "write_file", "slow"].map(tool);
  const filtered = filterTools(
    "fs",
    listed,
    ["ehco", "raed_*", "read_?", "mcp__fs__slow", "zzz", "echo", "ehco"],
  );
  assert.deepEqual(names(filtered.kept), ["echo"]);
  assert.deepEqual(
    filtered.unmatched.map((u) => [u.entry, u.closest]),
    [
      ["ehco", ["echo"]],
      ["raed_*", ["read_dir", "read_file"]],
      ["read_?", ["read_dir", "read_file"]],
      ["mcp__fs__slow", ["slow"]],
      ["zzz", []], // and the repeated "ehco" only once
    ],
  );
  const texts = filtered.unmatched.map(unmatchedText);
  assert.equal(
    texts[0],
    '.hel/mcp.json: servers."fs".tools entry "ehco" matches none of the 5 tools server fs ' +
      'lists (closest listed: "echo"); fix or remove it',
  );
  assert.match(texts[2]!, /\(closest listed: "read_dir", "read_file"; only '\*' is a wildcard\)/);
  assert.match(
    texts[3]!,
    /closest listed: "slow"; write the server's own tool name, without "mcp__fs__"/,
  );
  assert.match(
    texts[4]!,
    /entry "zzz" matches none of the 5 tools server fs lists; fix or remove it$/,
  );
});

Deno.test("a short entry is close only to names it starts, not to every name", () => {
  const listed = ["big", "a.b", "xs", "x".repeat(70)].map(tool);
  const filtered = filterTools("t", listed, ["x?", "bg"]);
  assert.deepEqual(filtered.unmatched.map((u) => [u.entry, u.closest]), [
    ["x?", ["xs", "x".repeat(70)]],
    ["bg", []],
  ]);
  // A long name is shown cut, not whole.
  assert.match(unmatchedText(filtered.unmatched[0]!), /"xs", "x{64}…"; only/);
});

Deno.test("server-chosen names in the warning cannot carry terminal controls", () => {
  const filtered = filterTools("t", [tool("\x1b[2Jecho")], ["\x1b[2Jecko"]);
  const text = unmatchedText(filtered.unmatched[0]!);
  assert.ok(!text.includes("\x1b"), text);
  assert.match(text, /closest listed: /);
});
