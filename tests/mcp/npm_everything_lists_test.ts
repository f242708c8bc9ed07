/**
 * server-everything's resources, prompts and list changes, as the real server from npm gives
 * them: the burst of tool announcements it sends once initialized costs one listing, the model
 * lists and reads its resources (a document, a template filled in, a binary),
 * a resource its gzip tool registers mid-run is named in the next request's note, and in the
 * chat (a real pseudo-terminal) its prompts run as commands, arguments completed through
 * `completion/complete`, the prompt's messages (an embedded resource too) sent as the turn.
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runHel, scriptedModel } from "../_helpers.ts";
import { startChat } from "../_chat_terminal.ts";
import { FAST, helMcpTraced, systemText, toolMessage } from "../_mcp.ts";
import { everythingProject, ignoreNpm as ignore, SLOW_START } from "../_npx.ts";

const name = (tool: string) => `mcp__everything__${tool}`;
const call = (id: string, tool: string, args: Record<string, unknown> = {}) => ({
  id,
  name: name(tool),
  arguments: args,
});
const GZIPPED = "demo://resource/session/hello.txt.gz";

Deno.test({
  name:
    "server-everything: its announcements at start cost one listing, the model lists and reads its resources and templates, and a resource its gzip tool adds is named in the next request",
  ignore,
  async fn() {
    await using project = await everythingProject();
    const tools = ["list_resources", "list_resource_templates", "read_resource"].map(name);
    await using model = scriptedModel([
      {
        toolCalls: [{
          id: "load",
          name: "load_mcp_tool",
          arguments: { names: [...tools, name("gzip-file-as-resource")] },
        }],
      },
      {
        toolCalls: [
          call("list", "list_resources"),
          call("templates", "list_resource_templates"),
          call("doc", "read_resource", { uri: "demo://resource/static/document/features.md" }),
          call("text", "read_resource", { uri: "demo://resource/dynamic/text/7" }),
          call("blob", "read_resource", { uri: "demo://resource/dynamic/blob/3" }),
          call("gzip", "gzip-file-as-resource", {
            name: "hello.txt.gz",
            data: "data:text/plain;base64,aGVsbG8gZnJvbSBoZWwK",
          }),
        ],
      },
      { toolCalls: [call("gzipped", "read_resource", { uri: GZIPPED })] },
      { text: "done" },
    ]);
    const { trace } = await helMcpTraced(project, model, SLOW_START, { run: runHel });
    // Once initialized, the server registers a tool for each capability hel declares and
    // announces each (a burst): one more listing, nothing new, so no note.
    assert.ok(
      trace.some((e) => e.event === "list_changed" && e.kind === "tools" && e.count === 1),
      "server-everything announced a tools change",
    );
    assert.equal(
      trace.filter((e) => e.event === "relisted" && e.kind === "tools").length,
      1,
      "the burst was listed once",
    );
    assert.ok(
      !model.requests[0]!.messages.some((m) => String(m.content).startsWith("[hel:")),
      "no note at the start",
    );
    for (const tool of tools) {
      assert.match(systemText(model.requests[0]!), new RegExp(`^- ${tool}: `, "m"));
    }
    assert.match(
      toolMessage(model, "list"),
      /^\d+ resources of MCP server everything:\n(- demo:\/\/resource\/static\/document\/\S+ — \S+ \(text\/\w+\): Static document file exposed from \/docs: \S+\n?)+$/,
    );
    assert.match(
      toolMessage(model, "templates"),
      /^- demo:\/\/resource\/dynamic\/text\/\{resourceId\} — Dynamic Text Resource \(text\/plain\): Plaintext dynamic resource/m,
    );
    assert.match(
      toolMessage(model, "doc"),
      /^\[resource: demo:\/\/resource\/static\/document\/features\.md, text\/markdown\]\n# Everything Server - Features\n/,
    );
    assert.match(
      toolMessage(model, "text"),
      /^\[resource: demo:\/\/resource\/dynamic\/text\/7, text\/plain\]\nResource 7: This is a plaintext resource created at /,
    );
    assert.match(
      toolMessage(model, "blob"),
      /^\[resource: demo:\/\/resource\/dynamic\/blob\/3, text\/plain, \d+ B of binary data, not shown\]$/,
    );
    // The gzip tool registered a resource and announced it: the next request says so.
    const note = String(model.requests[2]!.messages.at(-1)?.content);
    assert.match(
      note,
      /^\[hel: MCP servers changed what they offer[^\n]*\]\nNew resources of MCP server everything:\n- demo:\/\/resource\/session\/hello\.txt\.gz — hello\.txt\.gz \(application\/gzip\)$/,
    );
    assert.match(
      toolMessage(model, "gzipped"),
      /^\[resource: demo:\/\/resource\/session\/hello\.txt\.gz, application\/gzip, \d+ B of binary data, not shown\]$/,
    );
    assert.equal(model.remaining(), 0);
  },
});

// deno-lint-ignore no-explicit-any
const lastUser = (request: { messages: any[] }) =>
  request.messages.filter((message) => message.role === "user").at(-1)?.content;

Deno.test({
  name:
    "server-everything's prompts in the chat: arguments completed through the server, the messages (an embedded resource too) sent as the turn",
  ignore,
  async fn() {
    await using project = await everythingProject();
    await using model = scriptedModel([
      { text: "Alice it is." },
      { text: "Read it." },
      { text: "Sunny." },
    ]);
    const chat = await startChat(project, [
      "--base-url",
      model.url,
      "--model",
      "m",
      ...FAST,
      ...SLOW_START,
    ]);
    const command = "/mcp__everything__completable-prompt";
    // Keys that reach hel in one read are taken as typed text: each Tab goes alone.
    const typeThenTab = async (text: string, shown: string) => {
      await chat.press(text);
      await chat.waitFor(`> ${shown}`);
      await chat.press("\t");
    };
    await typeThenTab(`${command} Eng`, `${command} Eng`);
    await chat.waitFor(`> ${command} Engineering`);
    // The second argument's values depend on the first: the server was told it.
    await typeThenTab("A", `${command} Engineering A`);
    await chat.waitFor(`> ${command} Engineering Alice`);
    await chat.press("\r");
    await chat.waitFor("Alice it is.");
    assert.equal(
      lastUser(model.requests[0]!),
      "Please promote Alice to the head of the Engineering team.",
    );

    const sendCommand = async (line: string) => {
      await chat.press(line);
      await chat.waitUntil((rows) => rows.some((row) => row.startsWith(`│ > ${line} `)), line);
      await chat.press("\r");
    };
    await sendCommand("/mcp__everything__resource-prompt Text 2");
    await chat.waitFor("Read it.");
    assert.match(
      lastUser(model.requests[1]!),
      /^This prompt includes the Text resource with id: 2\. Please analyze the following resource:\n\n\[resource: demo:\/\/resource\/dynamic\/text\/2, text\/plain\]\nResource 2: This is a plaintext resource created at /,
    );
    await sendCommand('/mcp__everything__args-prompt "San Francisco" state=CA');
    await chat.waitFor("Sunny.");
    assert.equal(lastUser(model.requests[2]!), "What's weather in San Francisco, CA?");
    await chat.press("\x04");
    assert.equal((await chat.finish()).code, 0);
    assert.equal(model.remaining(), 0);
  },
});
