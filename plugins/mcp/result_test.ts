import assert from "node:assert/strict";
import { convertCallResult, EMPTY_RESULT, type ResultSource } from "./result.ts";
import { outputCheck } from "./output_schema.ts";

const source: ResultSource = { server: "s", tool: "t" };
const convert = (result: unknown, from: ResultSource = source) => convertCallResult(result, from);
/** 8 bytes of a PNG's signature. */
const PNG = "iVBORw0KGgo=";

Deno.test("text blocks are joined with newlines; an image is a marker with its type and size", async () => {
  const result = await convert({
    content: [
      { type: "text", text: "one" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "text", text: "two" },
    ],
  });
  assert.equal(result.text, "one\n[image: image/png, 8 B]\n[audio: audio/wav, 4 B]\ntwo");
  assert.equal(result.ok, true);
  assert.deepEqual(result.media, [
    {
      kind: "image",
      mimeType: "image/png",
      data: PNG,
      bytes: 8,
      marker: "[image: image/png, 8 B]",
    },
    {
      kind: "audio",
      mimeType: "audio/wav",
      data: "UklGRg==",
      bytes: 4,
      marker: "[audio: audio/wav, 4 B]",
    },
  ]);
});

Deno.test("embedded resources give their URI and text, or URI, type and size for a blob", async () => {
  const result = await convert({
    content: [
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hi" } },
      {
        type: "resource",
        resource: { uri: "file:///b.bin", mimeType: "application/gzip", blob: "AAAA" },
      },
    ],
  });
  assert.equal(
    result.text,
    "[resource: file:///a.txt, text/plain]\nhi\n" +
      "[resource: file:///b.bin, application/gzip, 3 B of binary data, not shown]",
  );
  assert.equal(result.media, undefined);
});

Deno.test("a resource link is one line with its URI, name, type, size and description, quoted", async () => {
  const result = await convert({
    content: [{
      type: "resource_link",
      uri: "demo://resource/2",
      name: "Text\nResource] 2",
      mimeType: "text/plain",
      size: 2048,
      description: "Resource 2: plaintext",
    }],
  });
  assert.equal(
    result.text,
    '[resource link: demo://resource/2 name="Text\\nResource] 2" type=text/plain size=2.0 KiB ' +
      'description="Resource 2: plaintext"]',
  );
  // A URI that is not one plain token is quoted, so it cannot end hel's line either.
  assert.equal(
    (await convert({ content: [{ type: "resource_link", uri: "a b]", name: "n" }] })).text,
    '[resource link: "a b]" name="n"]',
  );
});

Deno.test("without text, structuredContent as compact JSON, without base64 a block repeats", async () => {
  assert.deepEqual(await convert({ content: [], structuredContent: { port: 8437 } }), {
    ok: true,
    text: '{"port":8437}',
  });
  const data = "A".repeat(400);
  const media = await convert({
    content: [{ type: "image", data, mimeType: "image/png" }],
    structuredContent: {
      content: [{ type: "image", data, mimeType: "image/png" }],
      url: `data:image/png;base64,${data}`,
    },
  });
  assert.equal(
    media.text,
    "[image: image/png, 300 B]\n" +
      '{"content":[{"type":"image","data":"[image/png, 300 B of base64 data, the same as ' +
      'content[0]; not repeated]","mimeType":"image/png"}],"url":"[image/png, 300 B of base64 ' +
      'data, the same as content[0]; not repeated]"}',
  );
  // With text, the text wins.
  assert.equal(
    (await convert({ content: [{ type: "text", text: "t" }], structuredContent: { a: 1 } })).text,
    "t",
  );
});

Deno.test("every empty result reads the same; an empty error says so", async () => {
  for (const empty of [{}, { content: [] }, { content: [{ type: "text", text: "" }] }, null]) {
    assert.deepEqual(await convert(empty), { ok: true, text: EMPTY_RESULT });
  }
  assert.deepEqual(await convert({ content: [{ type: "text", text: " \n" }], isError: true }), {
    ok: false,
    text: "the tool reported an error without saying what went wrong",
  });
  assert.deepEqual(
    await convert({ content: [{ type: "text", text: "tool failed" }], isError: true }),
    {
      ok: false,
      text: "tool failed",
    },
  );
});

Deno.test("a malformed result is an error naming the server's mistake", async () => {
  const cases: [unknown, string][] = [
    [{ content: "hello" }, 'its "content" is "hello", not a list'],
    [{ content: [42] }, "content[0] is a number, not a block object"],
    [{ content: [{ type: "text" }] }, 'content[0] is a text block without a "text" string'],
    [
      { content: [{ type: "image", data: "not base64!", mimeType: "image/png" }] },
      'content[0] (image) "data" is not base64',
    ],
    [
      { content: [{ type: "image", data: PNG, mimeType: "png\u001b[31m" }] },
      'content[0] (image) has mimeType "png\\u001b[31m", not a MIME type such as image/png',
    ],
    [
      { content: [{ type: "resource", resource: { uri: "x:" } }] },
      'content[0].resource has neither a "text" nor a "blob" string',
    ],
    [
      { content: [{ type: "resource_link", uri: "x:" }] },
      'content[0] is a resource_link without a "uri" and a "name" string',
    ],
    [{ content: [], structuredContent: [1] }, 'its "structuredContent" is not an object'],
  ];
  for (const [result, problem] of cases) {
    const converted = await convert(result);
    assert.equal(converted.ok, false);
    assert.equal(
      converted.text,
      `MCP server s answered t with a result the protocol does not allow: ${problem}. This is the ` +
        "server's mistake, not your call's; retrying the same call will not help. Continue " +
        "without this result, or tell the user the tool is broken.",
    );
  }
});

Deno.test("a block type hel does not know is named as a plain word", async () => {
  assert.equal(
    (await convert({ content: [{ type: "\u001b[31mred\nline" }] })).text,
    '["\\u001b[31mred\\nline" content omitted: hel cannot read it]',
  );
  assert.equal(
    (await convert({ content: [{ type: "video" }] })).text,
    "[video content omitted: hel cannot read it]",
  );
});

Deno.test("audience: content meant for the user alone is labelled, and its images are not attached", async () => {
  const result = await convert({
    content: [
      { type: "text", text: "done", annotations: { audience: ["user"], priority: 0.7 } },
      { type: "image", data: PNG, mimeType: "image/png", annotations: { audience: ["user"] } },
      { type: "text", text: "debug", annotations: { audience: ["assistant"] } },
    ],
  });
  assert.equal(
    result.text,
    "(meant for the user) done\n[image: image/png, 8 B, meant for the user]\ndebug",
  );
  assert.equal(result.media, undefined);
});

Deno.test("structuredContent is checked against the outputSchema: a mismatch or none is an error", async () => {
  const checkOutput = outputCheck({
    outputSchema: {
      type: "object",
      properties: { temperature: { type: "number" } },
      required: ["temperature"],
    },
  });
  const from = { ...source, checkOutput };
  assert.deepEqual(
    await convert({
      content: [{ type: "text", text: "{}" }],
      structuredContent: { temperature: 3 },
    }, from),
    {
      ok: true,
      text: "{}",
    },
  );
  const wrong = await convert({ content: [], structuredContent: { temperature: "hot" } }, from);
  assert.equal(wrong.ok, false);
  assert.match(
    wrong.text,
    /its structuredContent does not match the tool's outputSchema \(temperature must be number \(it is "hot"\)\)/,
  );
  const missing = await convert({ content: [], structuredContent: {} }, from);
  assert.match(missing.text, /\(structuredContent must have required property 'temperature'\)/);
  const none = await convert({ content: [{ type: "text", text: "x" }] }, from);
  assert.match(
    none.text,
    /the tool declares an outputSchema but the result has no "structuredContent"/,
  );
  // An error result is not held to the schema.
  assert.deepEqual(
    await convert({ content: [{ type: "text", text: "no" }], isError: true }, from),
    {
      ok: false,
      text: "no",
    },
  );
  // A schema ajv cannot compile leaves results unchecked.
  const unusable = outputCheck({ outputSchema: { $ref: "https://example.com/schema.json" } });
  assert.equal(
    (await convert({ content: [], structuredContent: { a: 1 } }, {
      ...source,
      checkOutput: unusable,
    })).text,
    '{"a":1}',
  );
});

Deno.test("images over the size bound are marked, not attached", async () => {
  const big = "A".repeat(Math.ceil((5 * 1024 * 1024 + 3) / 3) * 4);
  const result = await convert({ content: [{ type: "image", data: big, mimeType: "image/jpeg" }] });
  assert.equal(result.text, "[image: image/jpeg, 5.0 MiB, too large to attach (over 5.0 MiB)]");
  assert.equal(result.media, undefined);
});
