/**
 * What the model receives from the real `@modelcontextprotocol/server-everything` (npm, over
 * stdio) for each kind of result: an image (a marker with its type and size, and, for a model
 * declared to take images, the image itself as a content part after the tool messages), embedded
 * text and blob resources, resource links, structured content checked against the tool's
 * outputSchema, and annotated messages. media_test.ts has a model that takes text only, and
 * what is kept for later requests and sessions.
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { assertNoServerLeft, helMcp, toolMessage } from "../_mcp.ts";
import { everythingProject, ignoreNpm as ignore, SLOW_START } from "../_npx.ts";
import type { RecordedRequest } from "../../fixtures/scripted_model.ts";

/** The content parts of the user messages of a request that are not plain text. */
export // deno-lint-ignore no-explicit-any
function attachedParts(request: RecordedRequest): any[] {
  return request.messages.flatMap((message) =>
    message.role === "user" && Array.isArray(message.content) ? message.content : []
  );
}

/** Decoded bytes of base64, as hel counts them. */
const decodedBytes = (base64: string) => atob(base64).length;

Deno.test({
  name:
    "server-everything's images, resources, links, structured content and annotations reach the model whole",
  ignore,
  async fn() {
    await using project = await everythingProject();
    const tool = (name: string) => `mcp__everything__${name}`;
    const names = [
      "get-tiny-image",
      "get-resource-reference",
      "get-resource-links",
      "get-structured-content",
      "get-annotated-message",
      "gzip-file-as-resource",
    ].map(tool);
    const gzipOf = "data:text/plain;base64,aGVsbG8gZnJvbSBoZWw=";
    await using model = scriptedModel([
      { toolCalls: [{ id: "load", name: "load_mcp_tool", arguments: { names } }] },
      {
        toolCalls: [
          { id: "image", name: tool("get-tiny-image"), arguments: {} },
          {
            id: "text-resource",
            name: tool("get-resource-reference"),
            arguments: { resourceType: "Text", resourceId: 2 },
          },
          {
            id: "blob-resource",
            name: tool("get-resource-reference"),
            arguments: { resourceType: "Blob", resourceId: 1 },
          },
          { id: "links", name: tool("get-resource-links"), arguments: { count: 2 } },
          {
            id: "weather",
            name: tool("get-structured-content"),
            arguments: { location: "Chicago" },
          },
          {
            id: "annotated",
            name: tool("get-annotated-message"),
            arguments: { messageType: "success", includeImage: true },
          },
          {
            id: "debug",
            name: tool("get-annotated-message"),
            arguments: { messageType: "debug" },
          },
          {
            id: "gzip-link",
            name: tool("gzip-file-as-resource"),
            arguments: { name: "hello.gz", data: gzipOf },
          },
          {
            id: "gzip-blob",
            name: tool("gzip-file-as-resource"),
            arguments: { name: "hello.gz", data: gzipOf, outputType: "resource" },
          },
        ],
      },
      { text: "done" },
    ]);
    const result = await helMcp(project, model, [...SLOW_START, "--model-input", "text,image"]);
    assert.equal(result.code, 0, result.stderr);

    const image = toolMessage(model, "image");
    const size = image.match(/\[image: image\/png, (\d+\.\d) KiB\]/)?.[1];
    assert.equal(
      image,
      `Here's the image you requested:\n[image: image/png, ${size} KiB]\nThe image above is the MCP logo.`,
    );
    // The model takes images: the logo follows the tool messages, after its marker and call.
    // (The gzip tool adds a resource, so hel's note of it follows, joined into the same message:
    // the request never has two user messages in a row.)
    const parts = attachedParts(model.requests[2]!);
    assert.deepEqual(parts.map((part) => part.type), ["text", "text", "image_url", "text"]);
    assert.match(parts[3].text, /^\[hel: MCP servers changed what they offer/);
    assert.equal(parts[1].text, `[image: image/png, ${size} KiB] from call image:`);
    const url: string = parts[2].image_url.url;
    assert.match(url, /^data:image\/png;base64,iVBORw0KGgo/);
    assert.equal((decodedBytes(url.slice(url.indexOf(",") + 1)) / 1024).toFixed(1), size);
    // The message of attached media comes right after the last tool message of the response.
    const roles = model.requests[2]!.messages.map((message) => message.role);
    assert.deepEqual(roles.slice(-2), ["tool", "user"]);

    assert.match(
      toolMessage(model, "text-resource"),
      /^Returning resource reference for Resource 2:\n\[resource: demo:\/\/resource\/dynamic\/text\/2, text\/plain\]\nResource 2: This is a plaintext resource created at .+\nYou can access this resource using the URI: demo:\/\/resource\/dynamic\/text\/2$/,
    );
    assert.match(
      toolMessage(model, "blob-resource"),
      /\n\[resource: demo:\/\/resource\/dynamic\/blob\/1, text\/plain, \d+ B of binary data, not shown\]\n/,
    );
    assert.equal(
      toolMessage(model, "links"),
      "Here are 2 resource links to resources available in this server:\n" +
        '[resource link: demo://resource/dynamic/blob/1 name="Blob Resource 1" ' +
        'type=text/plain description="Resource 1: plaintext resource"]\n' +
        '[resource link: demo://resource/dynamic/text/2 name="Text Resource 2" type=text/plain ' +
        'description="Resource 2: plaintext resource"]',
    );
    // Valid structured content passes its outputSchema; its text block is what the model reads.
    assert.equal(
      toolMessage(model, "weather"),
      '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}',
    );
    // Content meant for the user is labelled, and its image is not sent to the model.
    assert.match(
      toolMessage(model, "annotated"),
      /^\(meant for the user\) Operation completed successfully\n\[image: image\/png, \d+\.\d KiB, meant for the user\]$/,
    );
    assert.equal(
      toolMessage(model, "debug"),
      "Debug: Cache hit ratio 0.95, latency 150ms",
    );
    assert.equal(
      toolMessage(model, "gzip-link"),
      '[resource link: demo://resource/session/hello.gz name="hello.gz" type=application/gzip]',
    );
    assert.match(
      toolMessage(model, "gzip-blob"),
      /^\[resource: demo:\/\/resource\/session\/hello\.gz, application\/gzip, \d+ B of binary data, not shown\]$/,
    );
    // No base64 reached the model as text.
    const sent = JSON.stringify(model.requests[2]!.messages.filter((m) => m.role === "tool"));
    assert.doesNotMatch(sent, /iVBORw0KGgo|H4sI/);
    assert.equal(model.remaining(), 0);
    await assertNoServerLeft(project);
  },
});
