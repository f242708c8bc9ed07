/**
 * Elicitation in the Ink chat, through a real pseudo-terminal: server-everything's form drawn
 * as a box (who asks, the message, the fields around the one being filled in), filled in with
 * the keys, read back and sent; Esc cancels the next one. What the server got back is what the
 * model reads in the tool's result. A URL question (from the fixture server) shows its host.
 *
 * The server-everything test needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, toolMessage } from "../_helpers.ts";
import { FAST, mcpProject, modelArgs } from "../_mcp.ts";
import { everythingProject, ignoreNpm as ignore, SLOW_START } from "../_npx.ts";
import { startChat } from "../_chat_terminal.ts";
import { answerTo, elicitServer } from "../_elicit.ts";

const TOOL = "mcp__everything__trigger-elicitation-request";

function rawResult(text: string): Record<string, unknown> {
  return JSON.parse(text.slice(text.indexOf("Raw result:") + "Raw result:".length));
}

Deno.test({
  name:
    "the chat draws server-everything's form as a box: typed, ticked and picked values are sent after the review; Esc cancels",
  ignore,
  async fn() {
    await using project = await everythingProject();
    await using model = scriptedModel([
      { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [TOOL] } }] },
      { toolCalls: [{ id: "ask", name: TOOL, arguments: {} }] },
      { toolCalls: [{ id: "again", name: TOOL, arguments: {} }] },
      { text: "all asked" },
    ]);
    const chat = await startChat(project, [...modelArgs(model), ...FAST, ...SLOW_START], {
      columns: 100,
      rows: 36,
    });
    await chat.send("ask me");
    await chat.waitFor("MCP server everything asks you");
    const box = (await chat.screen()).join("\n");
    assert.match(box, /Your answer goes to the server, never to the model\./);
    assert.match(box, /Please provide inputs for the following fields:/);
    assert.match(box, /❯ String \*: /);
    assert.match(box, /Your full, legal name/);
    assert.match(box, /String with default: It was a dark and stormy night\./);
    assert.match(box, /field 1 of 13/);

    const enter = async (shown: string) => {
      await chat.press("\r");
      await chat.waitFor(shown);
    };
    await chat.press("Ada");
    await chat.waitFor("❯ String *: Ada");
    await enter("❯ Boolean: ‹ (not set) ›");
    await chat.press("y");
    await chat.waitFor("❯ Boolean: ‹ yes ›");
    await enter("❯ String with default: It was a dark and stormy night.");
    await enter("❯ String with email format: ");
    await chat.press("ada at example");
    await chat.waitFor("email format: ada at example");
    await enter("! must be an email address");
    await chat.press("\x15ada@example.com"); // Ctrl-U clears the line first
    await chat.waitFor("email format: ada@example.com");
    await enter("❯ String with uri format: ");
    await enter("❯ String with date format: ");
    await enter("❯ Integer: 42");
    await enter("❯ Number in range 1-1000: 3.14");
    await enter("❯ Untitled Single Select Enum: ‹ Monica ›");
    await chat.press("\x1b[C"); // →
    await chat.waitFor("‹ Rachel ›");
    await enter("❯ Untitled Multiple Select Enum: Guitar");
    await chat.press("\x1b[C"); // → to Piano
    await chat.waitFor("› [ ] Piano");
    await chat.press(" ");
    await chat.waitFor("› [x] Piano");
    await enter("❯ Titled Single Select Enum: ‹ Superman ›");
    await enter("❯ Titled Multiple Select Enum: Tuna");
    await enter("❯ Legacy Titled Single Select Enum: ‹ Cats ›");
    await enter("Your answer for MCP server everything:");
    const review = (await chat.screen()).join("\n");
    assert.match(review, /Untitled Multiple Select Enum: Guitar, Piano/);
    assert.match(review, /String with uri format: \(empty\)/);
    assert.match(review, /1\. Send it \(y\)/);
    await chat.press("y");
    // The next call asks again; Esc cancels it.
    await chat.waitFor("field 1 of 13");
    await chat.press("\x1b");
    await chat.waitFor("all asked");
    assert.deepEqual(rawResult(toolMessage(model, "ask")), {
      action: "accept",
      content: {
        name: "Ada",
        check: true,
        firstLine: "It was a dark and stormy night.",
        email: "ada@example.com",
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: "Rachel",
        untitledMultipleSelectEnum: ["Guitar", "Piano"],
        titledSingleSelectEnum: "hero-1",
        titledMultipleSelectEnum: ["fish-1"],
        legacyTitledEnum: "pet-1",
      },
    });
    assert.deepEqual(rawResult(toolMessage(model, "again")), { action: "cancel" });
    await chat.press("\x04");
    const { code, output } = await chat.finish();
    assert.equal(code, 0, output);
    assert.equal(model.remaining(), 0);
  },
});

Deno.test("the chat shows a URL question's host on a row of its own, warns of the user name before @, never opens it, and n declines", async () => {
  await using project = await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`),
  }));
  const tool = "mcp__asker__ask_url";
  const url = "https://login.example.com@evil.test/sign-in";
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [tool] } }] },
    { toolCalls: [{ id: "open", name: tool, arguments: { url } }] },
    { text: "asked" },
  ]);
  const chat = await startChat(project, [
    ...modelArgs(model),
    ...FAST,
    "--mcp-startup-timeout",
    "60",
  ]);
  await chat.send("sign me in");
  await chat.waitFor("host: evil.test");
  const box = (await chat.screen()).join("\n");
  assert.match(box, /MCP server asker asks you/);
  assert.match(box, /Open this/);
  assert.match(box, /│ https:\/\/login\.example\.com@evil\.test\/sign-in +│/);
  assert.match(box, /warning: the address has a user name before @/);
  assert.match(box, /hel does not open it/);
  assert.match(box, /1\. Done \(d\)/);
  assert.match(box, /2\. No, decline \(n\)/);
  await chat.press("n");
  await chat.waitFor("asked");
  assert.deepEqual(JSON.parse(toolMessage(model, "open")), { action: "decline" });
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
});

Deno.test("Ctrl-C at the chat's form box cancels the question and interrupts the turn", async () => {
  await using project = await mcpProject((root) => ({
    asker: elicitServer(`${root}/project/mcp-logs/asker.jsonl`),
  }));
  const tool = "mcp__asker__ask";
  const schema = { type: "object", properties: { name: { type: "string" } } };
  await using model = scriptedModel([
    { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names: [tool] } }] },
    { toolCalls: [{ id: "stop", name: tool, arguments: { message: "Stop me", schema } }] },
  ]);
  const chat = await startChat(project, [
    ...modelArgs(model),
    ...FAST,
    "--mcp-startup-timeout",
    "60",
  ]);
  await chat.send("ask me");
  await chat.waitFor("field 1 of 1");
  await chat.press("\x03");
  await chat.waitFor("interrupted");
  assert.deepEqual(
    await answerTo(`${project.root}/project/mcp-logs/asker.jsonl`, "Stop me"),
    { action: "cancel" },
  );
  assert.ok(!(await chat.screen()).join("\n").includes("field 1 of 1"), "the box is gone");
  await chat.press("\x04");
  const { code, output } = await chat.finish();
  assert.equal(code, 0, output);
  assert.equal(model.remaining(), 0);
});
