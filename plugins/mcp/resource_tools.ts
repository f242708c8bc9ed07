/**
 * A server's resources as three deferred tools, named like its own tools and listed and loaded
 * like them: `mcp__<server>__list_resources`, `__list_resource_templates` and
 * `__read_resource`. Only servers that declare `resources` get them. For a server in the
 * sandbox they are class `read` (allowed at every access level, never asked about); one outside
 * it can read whatever the person can (`file:///{path}`), so its are class `execute` like its
 * other tools. A large resource is spilled to a file by the core like any large result. A tool
 * of the server's own with one of these names keeps it, and hel's tool of that name is not
 * offered.
 *
 * @module
 */
import { defineTool, type Tool, type ToolResult, z } from "../../core/mod.ts";
import { type CatalogEntry, modelName } from "./catalog.ts";
import { readText, resourceLine } from "./resource_text.ts";
import { request, type ServerHandle } from "./server_requests.ts";

/** The tools' own names (the part after `mcp__<server>__`). */
export const RESOURCE_TOOL_NAMES = [
  "list_resources",
  "list_resource_templates",
  "read_resource",
] as const;

/** A resource tool of one server: its catalog entry and the tool that runs it. */
export interface ResourceTool {
  entry: CatalogEntry;
  tool: Tool;
}

const page = z.strictObject({
  cursor: z.string().optional().describe(
    "The cursor the previous page ended with, for the next page; leave out for the first",
  ),
});
const read = z.strictObject({
  uri: z.string().min(1).describe(
    "The resource's URI, from the list, a filled-in template or a resource link",
  ),
});

/**
 * The three tools of `server`, calling it through `handle` with `timeoutMs` per request, of
 * class `toolClass` for access levels (`read` for a sandboxed server).
 */
export function resourceTools(
  handle: ServerHandle,
  timeoutMs: number,
  toolClass: "read" | "execute" = "read",
): ResourceTool[] {
  const server = handle.name;
  const name = (tool: string) => modelName(server, tool);
  const tools = [
    defineTool({
      name: name("list_resources"),
      description: `Lists the resources MCP server ${server} offers (documents, files or ` +
        "records it can give you), one page at a time: each one's URI, name, MIME type, size " +
        `and description. Read one with ${name("read_resource")}.`,
      parameters: page,
      toolClass,
      category: "read",
      run: (args, context) =>
        listPage(handle, "resources/list", "resources", "uri", args.cursor, {
          timeoutMs,
          signal: context.signal,
        }),
    }),
    defineTool({
      name: name("list_resource_templates"),
      description: `Lists the URI templates of resources MCP server ${server} makes on ` +
        "demand (e.g. file:///{path}), one page at a time. Fill in a template's {variables} and " +
        `read the URI with ${name("read_resource")}.`,
      parameters: page,
      toolClass,
      category: "read",
      run: (args, context) =>
        listPage(
          handle,
          "resources/templates/list",
          "resourceTemplates",
          "uriTemplate",
          args.cursor,
          {
            timeoutMs,
            signal: context.signal,
          },
        ),
    }),
    defineTool({
      name: name("read_resource"),
      description: `Reads one resource of MCP server ${server} by its URI (from ` +
        `${name("list_resources")}, a filled-in template, or a resource link in a tool result).`,
      parameters: read,
      toolClass,
      category: "read",
      async run(args, context) {
        const answer = await request(handle, "resources/read", { uri: args.uri }, {
          timeoutMs,
          signal: context.signal,
          revive: true,
        });
        if (!answer.ok) {
          return {
            ok: false,
            // A restart's failure ends with its own full stop.
            text:
              `${answer.text.replace(/\.$/, "")}. Check the URI with ${
                name("list_resources")
              } or ` +
              `${name("list_resource_templates")}.`,
          };
        }
        return readText(server, args.uri, answer.value);
      },
    }),
  ];
  return tools.map((tool, index) => ({
    tool,
    entry: {
      fullName: tool.name,
      server,
      toolName: RESOURCE_TOOL_NAMES[index]!,
      description: tool.description,
      inputSchema: tool.parameters,
      check: (args) => tool.checkArguments!(args),
    },
  }));
}

async function listPage(
  handle: ServerHandle,
  method: string,
  key: string,
  uriKey: "uri" | "uriTemplate",
  cursor: string | undefined,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ToolResult> {
  const answer = await request(handle, method, cursor === undefined ? {} : { cursor }, {
    ...options,
    revive: true,
  });
  if (!answer.ok) return { ok: false, text: answer.text };
  const items = answer.value[key];
  if (!Array.isArray(items)) {
    return {
      ok: false,
      text: `MCP server ${handle.name} answered ${method} without a "${key}" list (the ` +
        "server's mistake); continue without it",
    };
  }
  const lines = items.flatMap((item) => resourceLine(item, uriKey) ?? []);
  const what = key === "resources" ? "resource" : "resource template";
  const skipped = items.length - lines.length;
  const next = answer.value.nextCursor;
  return {
    ok: true,
    text: [
      lines.length > 0
        ? `${lines.length} ${what}${lines.length === 1 ? "" : "s"} of MCP server ${handle.name}${
          cursor === undefined ? "" : " (a later page)"
        }:`
        : `MCP server ${handle.name} listed no ${what}s${
          cursor === undefined ? "" : " on this page"
        }.`,
      ...lines,
      ...(skipped > 0 ? [`(${skipped} listed item(s) without a URI left out)`] : []),
      ...(typeof next === "string"
        ? [`More: call again with {"cursor": ${JSON.stringify(next)}} for the next page.`]
        : []),
    ].join("\n"),
  };
}
