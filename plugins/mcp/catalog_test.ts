import assert from "node:assert/strict";
import { buildCatalog, listingLine, modelName, systemSection } from "./catalog.ts";

const OBJECT = { type: "object", properties: {} };

Deno.test("names are mcp__<server>__<tool> with characters outside [A-Za-z0-9_-] as _", () => {
  assert.equal(modelName("notes", "search"), "mcp__notes__search");
  assert.equal(modelName("t", "a.b/c d"), "mcp__t__a_b_c_d");
  assert.equal(modelName("t", "검색"), "mcp__t____");
  assert.equal(modelName("t", "ship🚀it"), "mcp__t__ship_it");
});

Deno.test("too long names, missing schemas and shared names are excluded with reasons", async () => {
  const catalog = await buildCatalog([
    {
      name: "t",
      tools: [
        { name: "echo", description: "  Echo.\n", inputSchema: OBJECT },
        { name: "x".repeat(70), inputSchema: OBJECT },
        { name: "noschema" },
        { name: "stringy", inputSchema: { type: "string" } },
        { name: "a.b", inputSchema: OBJECT },
        { name: "a_b", inputSchema: OBJECT },
        { description: "nameless", inputSchema: OBJECT },
        { name: "remote", inputSchema: { type: "object", $ref: "https://evil.invalid/s.json" } },
        { name: "invalid", inputSchema: { type: "object", required: "path" } },
      ],
    },
    {
      name: "u",
      tools: [{ name: "taken", inputSchema: OBJECT }, { name: "zed", inputSchema: OBJECT }, "x"],
    },
  ], new Set(["mcp__u__taken"]));
  assert.deepEqual(catalog.entries.map((e) => [e.fullName, e.toolName, e.description]), [
    ["mcp__t__echo", "echo", "Echo."],
    ["mcp__u__zed", "zed", ""],
  ]);
  const reasons = Object.fromEntries(
    catalog.excluded.map((e) => [`${e.server}/${e.toolName}`, e.reason]),
  );
  assert.match(reasons[`t/${"x".repeat(70)}`]!, /78 characters, over the 64/);
  assert.match(reasons["t/noschema"]!, /no object inputSchema/);
  assert.match(reasons["t/stringy"]!, /no object inputSchema/);
  assert.match(reasons["t/a.b"]!, /mcp__t__a_b is ambiguous/);
  assert.match(reasons["t/a_b"]!, /mcp__t__a_b is ambiguous/);
  assert.match(reasons["t/(no name)"]!, /without a name/);
  assert.match(reasons["u/taken"]!, /already the name of another tool/);
  assert.equal(reasons["u/(not a tool)"], 'the server listed "x" as a tool');
  assert.equal(
    reasons["t/remote"],
    "its inputSchema cannot be checked: can't resolve reference https://evil.invalid/s.json " +
      "from id #",
  );
  assert.match(reasons["t/invalid"]!, /^its inputSchema cannot be checked: schema is invalid: /);
});

Deno.test("each usable tool's arguments are checked against its own schema", async () => {
  const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
  const catalog = await buildCatalog(
    [{ name: "t", tools: [{ name: "s", inputSchema: schema }] }],
    new Set(),
  );
  const check = catalog.entries[0]!.check;
  assert.deepEqual(check({ q: "x" }), { ok: true, args: { q: "x" } });
  assert.deepEqual(check({ q: 1 }), { ok: false, problems: ["q must be a string, not integer"] });
});

Deno.test("the listing shows the first line, cut to 300 characters, without controls", () => {
  const entry = (description: string) => ({
    fullName: "mcp__t__x",
    server: "t",
    toolName: "x",
    description,
    inputSchema: OBJECT,
    check: (args: Record<string, unknown>) => ({ ok: true as const, args }),
  });
  assert.equal(listingLine(entry("First.\nSecond.")), "- mcp__t__x: First.");
  assert.equal(listingLine(entry("")), "- mcp__t__x");
  const long = listingLine(entry("é".repeat(400)));
  assert.equal(long, `- mcp__t__x: ${"é".repeat(300)}…`);
  assert.equal(
    listingLine(entry("red \u001b[31m\u202eevil")),
    "- mcp__t__x: red \\u001b[31m\\u202eevil",
  );
});

Deno.test("the system section says how to load, or that nothing was listed", () => {
  assert.match(systemSection([]), /^MCP tools .*load_mcp_tool.*\n\(no tools were listed\)$/s);
});

Deno.test("buildCatalog(): a tools allowlist applies first: left-out tools are counted, not excluded", async () => {
  const object = { type: "object" };
  const catalog = await buildCatalog([
    {
      name: "s",
      tools: [
        { name: "echo", inputSchema: object },
        { name: "fail", inputSchema: object },
        { name: "noschema" }, // left out by the allowlist, so not an exclusion to warn about
        { name: "a.b", inputSchema: object },
        { name: "a_b", inputSchema: object }, // would share mcp__s__a_b with "a.b"
      ],
      allow: ["echo", "fa*", "a_b", "nope"],
    },
    { name: "all", tools: [{ name: "x", inputSchema: object }] },
  ], new Set());
  assert.deepEqual(catalog.entries.map((e) => e.fullName), [
    "mcp__all__x",
    "mcp__s__a_b",
    "mcp__s__echo",
    "mcp__s__fail",
  ]);
  assert.deepEqual(catalog.excluded, []);
  assert.deepEqual([...catalog.leftOut], [["s", 2]]); // no entry for a server without a list
  assert.deepEqual(catalog.unmatched.map((u) => [u.server, u.entry]), [["s", "nope"]]);
});
