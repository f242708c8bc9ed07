/**
 * MCP against the real `@modelcontextprotocol/server-filesystem` from npm, started through `npx`
 * as users configure it (version pinned): a project file read through MCP, the server's own
 * refusal outside its root, an image read as media (its base64 never reaching the model as text,
 * though the server repeats it in structuredContent), and nothing left after exit.
 *
 * Needs `npx` and the npm registry (or a warm npm cache). Set HEL_SKIP_NPM_TESTS=1 to skip.
 *
 * @module
 */
import assert from "node:assert/strict";
import { scriptedModel } from "../_helpers.ts";
import { assertNoServerLeft, helMcp, mcpProject, toolMessage } from "../_mcp.ts";
import { FILESYSTEM, ignoreNpm as ignore, SLOW_START, warmNpx } from "../_npx.ts";

/** A 1×1 PNG (68 bytes). */
const PIXEL_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=";
const PIXEL = Uint8Array.from(atob(PIXEL_BASE64), (c) => c.charCodeAt(0));

Deno.test({
  name: "server-filesystem from npm reads a project file through MCP; nothing is left after exit",
  ignore,
  async fn() {
    await using project = await mcpProject((root) => ({
      fs: { command: "npx", args: ["-y", FILESYSTEM, `${root}/project`] },
    }), { files: { "notes/todo.txt": "ship the MCP plugin\n" } });
    await warmNpx(project, FILESYSTEM);
    await Deno.writeFile(`${project.project}/notes/pixel.png`, PIXEL);
    await Deno.writeFile(`${project.project}/notes/data.bin`, new Uint8Array(3000));
    const names = ["read_text_file", "list_directory", "read_media_file"].map((n) =>
      `mcp__fs__${n}`
    );
    await using model = scriptedModel([
      { toolCalls: [{ name: "load_mcp_tool", arguments: { names } }] },
      {
        toolCalls: [
          {
            id: "read",
            name: "mcp__fs__read_text_file",
            arguments: { path: `${project.project}/notes/todo.txt` },
          },
          {
            id: "list",
            name: "mcp__fs__list_directory",
            arguments: { path: `${project.project}/notes` },
          },
          { id: "outside", name: "mcp__fs__read_text_file", arguments: { path: "/etc/hostname" } },
          {
            id: "image",
            name: "mcp__fs__read_media_file",
            arguments: { path: `${project.project}/notes/pixel.png` },
          },
          {
            id: "binary",
            name: "mcp__fs__read_media_file",
            arguments: { path: `${project.project}/notes/data.bin` },
          },
        ],
      },
      { text: "done" },
    ]);
    const result = await helMcp(project, model, [...SLOW_START, "--model-input", "text,image"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(toolMessage(model, "read"), "ship the MCP plugin\n");
    assert.match(toolMessage(model, "list"), /\[FILE\] todo\.txt/);
    // The server's own refusal comes back as an error result; the loop went on.
    assert.match(toolMessage(model, "outside"), /^error: /);
    // The image is a marker, and the data its structuredContent repeats is named, not sent.
    const repeated = (summary: string) =>
      `[${summary} of base64 data, the same as content[0]; not repeated]`;
    assert.equal(
      toolMessage(model, "image"),
      "[image: image/png, 68 B]\n" +
        `{"content":[{"type":"image","data":"${
          repeated("image/png, 68 B")
        }","mimeType":"image/png"}]}`,
    );
    const uri = `file://${project.project}/notes/data.bin`;
    assert.equal(
      toolMessage(model, "binary"),
      `[resource: ${uri}, application/octet-stream, 2.9 KiB of binary data, not shown]\n` +
        `{"content":[{"type":"resource","resource":{"uri":"${uri}",` +
        `"mimeType":"application/octet-stream","blob":"${
          repeated("application/octet-stream, 2.9 KiB")
        }"}}]}`,
    );
    // The model takes images: the pixel itself follows the tool messages.
    const last = model.requests[2]!.messages.at(-1)!;
    assert.equal(last.role, "user");
    assert.deepEqual((last.content as { type: string; image_url?: unknown }[]).at(-1), {
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PIXEL_BASE64}` },
    });
    assert.equal(model.remaining(), 0);
    await assertNoServerLeft(project);
  },
});
