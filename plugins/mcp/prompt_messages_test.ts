import assert from "node:assert/strict";
import { MAX_PROMPT_CHARS, promptText } from "./prompt_messages.ts";
import { promptEntries } from "./prompt_commands.ts";

Deno.test("a prompt's messages as one turn, its blocks worded as tool results are: texts, an embedded resource under its URI, binaries and links as lines, roles when the assistant speaks", () => {
  const text = (role: string, content: unknown) => ({ role, content });
  assert.deepEqual(
    promptText("s", "p", {
      messages: [
        text("user", { type: "text", text: "Summarise the readme." }),
        text("assistant", { type: "text", text: "Which part?" }),
        text("user", {
          type: "resource",
          resource: { uri: "docs://readme", mimeType: "text/plain", text: "All of it." },
        }),
        text("user", { type: "image", data: "AAAA", mimeType: "image/png" }),
        text("user", { type: "resource_link", uri: "docs://x", name: "x", mimeType: "text/csv" }),
        text("user", { type: "mystery\u001b" }),
      ],
    }),
    {
      ok: true,
      text: "[user]\nSummarise the readme.\n\n[assistant]\nWhich part?\n\n" +
        "[user]\n[resource: docs://readme, text/plain]\nAll of it.\n\n" +
        "[user]\n[image: image/png, 3 B]\n\n" +
        '[user]\n[resource link: docs://x name="x" type=text/csv]\n\n' +
        '[user]\n["mystery\\u001b" content omitted: hel cannot read it]',
    },
  );
  assert.deepEqual(
    promptText("s", "p", { messages: [text("user", { type: "text", text: "hi" })] }),
    {
      ok: true,
      text: "hi",
    },
  );
});

Deno.test("a prompt with nothing in it, without messages or too long is refused, naming the server", () => {
  assert.deepEqual(promptText("s", "p", { messages: [] }), {
    ok: false,
    error: "MCP server s gave prompt p with nothing in it",
  });
  assert.deepEqual(promptText("s", "p", {}), {
    ok: false,
    error: 'MCP server s answered prompts/get for p without a "messages" list',
  });
  const long = { type: "text", text: "x".repeat(MAX_PROMPT_CHARS + 1) };
  const refused = promptText("s", "p", { messages: [{ role: "user", content: long }] });
  assert.equal(refused.ok, false);
  assert.match(
    (refused as { error: string }).error,
    /^MCP server s gave prompt p of 200,001 characters, over the 200,000 hel sends/,
  );
});

Deno.test("prompts become commands named like tools; a nameless one and a second of the same command are left out", () => {
  const { entries, excluded } = promptEntries("s", [
    { name: "a.b", description: "first line\nsecond", arguments: [{ name: "x", required: true }] },
    { name: "a_b", description: "same command" },
    { description: "no name" },
  ]);
  assert.deepEqual(entries.map((entry) => [entry.command, entry.summary, entry.arguments]), [
    ["mcp__s__a_b", "first line", [{ name: "x", required: true }]],
  ]);
  assert.deepEqual(excluded, [
    {
      server: "s",
      name: "a_b",
      reason: "another prompt of the server is offered as /mcp__s__a_b already",
    },
    { server: "s", name: "(no name)", reason: "the server listed a prompt without a name" },
  ]);
});
