import assert from "node:assert/strict";
import { buildCatalog, listingLine, MAX_TOOL_NAME, modelName, systemSection } from "./catalog.ts";

const OBJECT = { type: "object", properties: {} };

Deno.test("names are mcp__<server>__<tool> with characters outside [A-Za-z0-9_-] as _", () => {
  assert.equal(modelName("notes", "search"), "mcp__notes__search");
  assert.equal(modelName("t", "a.b/c d"), "mcp__t__a_b_c_d");
  assert.equal(modelName("t", "검색"), "mcp__t____");
  assert.equal(modelName("t", "ship🚀it"), "mcp__t__ship_it");
});

Deno.test("missing schemas, nameless tools and repeated names are excluded with reasons", async () => {
  const catalog = await buildCatalog([
    {
      name: "t",
      tools: [
        { name: "echo", description: "  Echo.\n", inputSchema: OBJECT },
        { name: "noschema" },
        { name: "stringy", inputSchema: { type: "string" } },
        { name: "twice", inputSchema: OBJECT },
        { name: "twice", inputSchema: OBJECT },
        { description: "nameless", inputSchema: OBJECT },
        { name: "remote", inputSchema: { type: "object", $ref: "https://evil.invalid/s.json" } },
        { name: "invalid", inputSchema: { type: "object", required: "path" } },
      ],
    },
    { name: "u", tools: [{ name: "zed", inputSchema: OBJECT }, "x"] },
  ], new Set());
  assert.deepEqual(catalog.entries.map((e) => [e.fullName, e.toolName, e.description]), [
    ["mcp__t__echo", "echo", "Echo."],
    ["mcp__u__zed", "zed", ""],
  ]);
  const reasons = Object.fromEntries(
    catalog.excluded.map((e) => [`${e.server}/${e.toolName}`, e.reason]),
  );
  assert.match(reasons["t/noschema"]!, /no object inputSchema/);
  assert.match(reasons["t/stringy"]!, /no object inputSchema/);
  assert.equal(
    reasons["t/twice"],
    'the server lists "twice" more than once, so a call could not say which one it means',
  );
  assert.equal(catalog.excluded.filter((e) => e.toolName === "twice").length, 2);
  assert.match(reasons["t/(no name)"]!, /without a name/);
  assert.equal(reasons["u/(not a tool)"], 'the server listed "x" as a tool');
  assert.equal(
    reasons["t/remote"],
    "its inputSchema cannot be checked: can't resolve reference https://evil.invalid/s.json " +
      "from id #",
  );
  assert.match(reasons["t/invalid"]!, /^its inputSchema cannot be checked: schema is invalid: /);
});

Deno.test("long, shared and taken names are kept under a hashed name, the same every time", async () => {
  const long = "x".repeat(70);
  const listing = [
    {
      name: "t",
      tools: [
        { name: long, inputSchema: OBJECT },
        { name: "a.b", inputSchema: OBJECT },
        { name: "a_b", inputSchema: OBJECT },
        { name: "c.d", inputSchema: OBJECT },
        { name: "c/d", inputSchema: OBJECT },
        { name: "taken", inputSchema: OBJECT },
      ],
    },
  ];
  const catalog = await buildCatalog(listing, new Set(["mcp__t__taken"]));
  assert.deepEqual(catalog.excluded, []);
  const named = Object.fromEntries(catalog.entries.map((e) => [e.toolName, e]));
  const hashed = (name: string, why: string) => {
    const entry = named[name]!;
    assert.equal(entry.renamed, why, name);
    assert.ok(entry.fullName.length <= MAX_TOOL_NAME, entry.fullName);
    return entry.fullName;
  };
  // The long name keeps as much of itself as fits before the hash: 64 characters in all.
  assert.match(hashed(long, "long"), /^mcp__t__x{43}_[0-9a-f]{12}$/);
  assert.equal(named[long]!.fullName.length, MAX_TOOL_NAME);
  // "a_b" is written as the model sees it, so it keeps the name; "a.b" gets the hash.
  assert.equal(named["a_b"]!.fullName, "mcp__t__a_b");
  assert.equal(named["a_b"]!.renamed, undefined);
  assert.match(hashed("a.b", "shared"), /^mcp__t__a_b_[0-9a-f]{12}$/);
  // Neither "c.d" nor "c/d" is written so: both are hashed, differently.
  assert.match(hashed("c.d", "shared"), /^mcp__t__c_d_[0-9a-f]{12}$/);
  assert.match(hashed("c/d", "shared"), /^mcp__t__c_d_[0-9a-f]{12}$/);
  assert.notEqual(named["c.d"]!.fullName, named["c/d"]!.fullName);
  assert.match(hashed("taken", "taken"), /^mcp__t__taken_[0-9a-f]{12}$/);
  // The same listing in another order (as on another run) gives the same names.
  const again = await buildCatalog(
    [{ name: "t", tools: [...listing[0]!.tools].reverse() }],
    new Set(["mcp__t__taken"]),
  );
  assert.deepEqual(
    again.entries.map((e) => [e.toolName, e.fullName]),
    catalog.entries.map((e) => [e.toolName, e.fullName]),
  );
});

Deno.test("a server name too long for any tool name excludes its tools with the fix", async () => {
  const catalog = await buildCatalog(
    [{ name: "s".repeat(44), tools: [{ name: "x", inputSchema: OBJECT }] }],
    new Set(),
  );
  assert.deepEqual(catalog.entries, []);
  assert.match(
    catalog.excluded[0]!.reason,
    /^the server's name s{44} is too long for its tools' names to fit 64 characters; name the server with at most 43 characters$/,
  );
});

Deno.test("annotations are read; readOnlyHint makes a read only where the server is trusted", async () => {
  const tools = [
    {
      name: "look",
      inputSchema: OBJECT,
      annotations: { title: "Look", readOnlyHint: true, openWorldHint: false },
    },
    { name: "odd", inputSchema: OBJECT, annotations: { readOnlyHint: "yes" } },
    { name: "plain", inputSchema: OBJECT },
  ];
  const [untrusted, trusted] = await Promise.all([
    buildCatalog([{ name: "t", tools }], new Set()),
    buildCatalog([{ name: "t", tools, trustAnnotations: true }], new Set()),
  ]);
  const look = (catalog: typeof trusted) => catalog.entries.find((e) => e.toolName === "look")!;
  assert.deepEqual(look(untrusted).annotations, {
    title: "Look",
    hints: { readOnlyHint: true, openWorldHint: false },
  });
  assert.equal(look(untrusted).readOnly, false);
  assert.equal(look(trusted).readOnly, true);
  // A hint that is not a boolean is no hint, trusted or not.
  assert.deepEqual(trusted.entries.map((e) => [e.toolName, e.readOnly]), [
    ["look", true],
    ["odd", false],
    ["plain", false],
  ]);
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
