/**
 * Images from MCP tools and the model: a model that takes text only reads markers and no image
 * part is sent; one declared to take images (the `modelInput` setting) gets the newest four as
 * content parts after the tool messages, and no image is written to the session journal, so a
 * resumed session reads markers only. The fixture server's image is 8 bytes of a PNG signature.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel, tempProject } from "../_helpers.ts";
import { runHelInProcess } from "../_run.ts";
import { fixtureServer, helMcp, mcpProject, toolMessage } from "../_mcp.ts";
import type { RecordedRequest } from "../../fixtures/scripted_model.ts";

const IMAGE = "iVBORw0KGgo=";

/** The content parts of a request's user messages (its attached media and their labels). */
// deno-lint-ignore no-explicit-any
function attachedParts(request: RecordedRequest): any[] {
  return request.messages.flatMap((message) =>
    message.role === "user" && Array.isArray(message.content) ? message.content : []
  );
}

Deno.test("a model that takes text only gets the image's marker and no image part", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }));
  await using model = scriptedModel([
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__image"] } }] },
    { toolCalls: [{ id: "image", name: "mcp__t__image", arguments: {} }] },
    { text: "done" },
  ]);
  const result = await helMcp(project, model);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(toolMessage(model, "image"), "[image: image/png, 8 B]\ncaption");
  assert.deepEqual(model.requests.flatMap(attachedParts), []);
  assert.doesNotMatch(JSON.stringify(model.requests.at(-1)!.body), /iVBORw0KGgo/);
});

Deno.test("a model that takes images gets the newest four; the journal keeps none, so a resumed session reads markers", async () => {
  await using project = await mcpProject((root) => ({ t: fixtureServer(root, "t") }));
  await Deno.writeTextFile(
    `${project.root}/hel-home/settings.jsonc`,
    '{ "modelInput": ["text", "image"] }\n',
  );
  const ids = ["i1", "i2", "i3", "i4", "i5"];
  await using model = scriptedModel([
    { toolCalls: [{ name: "load_mcp_tool", arguments: { names: ["mcp__t__image"] } }] },
    { toolCalls: ids.map((id) => ({ id, name: "mcp__t__image", arguments: {} })) },
    { text: "five pictures" },
  ]);
  const result = await helMcp(project, model);
  assert.equal(result.code, 0, result.stderr);
  const parts = attachedParts(model.requests[2]!);
  assert.deepEqual(
    parts.filter((part) => part.type === "text").slice(1).map((part) => part.text),
    ["i2", "i3", "i4", "i5"].map((id) => `[image: image/png, 8 B] from call ${id}:`),
  );
  assert.deepEqual(
    parts.filter((part) => part.type === "image_url").map((part) => part.image_url.url),
    Array(4).fill(`data:image/png;base64,${IMAGE}`),
  );
  for (const id of ids) assert.equal(toolMessage(model, id), "[image: image/png, 8 B]\ncaption");

  let journals = "";
  const sessions = `${project.project}/.hel/sessions`;
  for await (const entry of Deno.readDir(sessions)) {
    if (entry.isDirectory) {
      journals += await Deno.readTextFile(`${sessions}/${entry.name}/journal.jsonl`);
    }
  }
  assert.match(journals, /\[image: image\/png, 8 B\]/);
  assert.doesNotMatch(journals, /iVBORw0KGgo/);

  await using next = scriptedModel([{ text: "they were pictures" }]);
  const resumed = await helMcp(project, next, ["-c"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  const request = next.requests[0]!;
  const markers = request.messages.filter((m) =>
    m.role === "tool" && String(m.content).startsWith("[image: image/png, 8 B]")
  );
  assert.equal(markers.length, 5);
  assert.deepEqual(attachedParts(request), []);
});

Deno.test("--model-input and modelInput name what is wrong with a kind hel does not know", async () => {
  await using project = await tempProject();
  await using model = scriptedModel([]);
  const flag = await runHelInProcess(
    ["--base-url", model.url, "--model-input", "text,video", "hi"],
    { cwd: project.project },
  );
  assert.equal(flag.code, 2);
  assert.match(
    flag.stderr,
    /--model-input <kinds>' argument 'text,video' is invalid\. expected a comma-separated list of text, image, audio, e\.g\. text,image; unknown: video/,
  );
  await Deno.writeTextFile(
    `${project.root}/hel-home/settings.jsonc`,
    '{"modelInput": ["image", "video"]}',
  );
  const setting = await runHelInProcess(["--base-url", model.url, "hi"], { cwd: project.project });
  assert.equal(setting.code, 2);
  assert.match(
    setting.stderr,
    /settings\.jsonc:1:26: modelInput\[1\] must be one of "text", "image", "audio"/,
  );
  assert.equal(model.requests.length, 0);
});
