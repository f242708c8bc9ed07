/**
 * A loaded MCP tool as the core's tool-call path sees it: the server's name, description and
 * input schema, class `execute` (or `read` for a read-only tool of a server whose annotations
 * the person trusts: tool_annotations.ts), run by a `tools/call` to its server. The permission
 * question shows the server, the tool and the arguments, and "don't ask again" covers the
 * server.
 *
 * @module
 */
import type { Tool, ToolResult } from "../../core/mod.ts";
import type { CatalogEntry } from "./catalog.ts";
import { convertCallResult, type ResultConverter } from "./result.ts";

/** What the tool needs of its server's connection. */
export interface ToolCaller {
  call(
    toolName: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    convert: ResultConverter,
  ): Promise<ToolResult>;
}

/** How a result of `entry` is converted: checked against its outputSchema, if it has one. */
export function resultConverter(entry: CatalogEntry): ResultConverter {
  const source = { server: entry.server, tool: entry.toolName, checkOutput: entry.checkOutput };
  return (result) => convertCallResult(result, source);
}

/** The tool for `entry`, calling its server through `connection`. */
export function serverTool(entry: CatalogEntry, connection: ToolCaller): Tool {
  return {
    name: entry.fullName,
    description: entry.description,
    parameters: entry.inputSchema,
    checkArguments: entry.check,
    toolClass: entry.readOnly ? "read" : "execute",
    category: "other",
    describeCall: (args) =>
      Promise.resolve({
        preview: { kind: "arguments", args, server: entry.server, tool: entry.toolName },
        scope: { kind: "server", server: entry.server },
      }),
    run: (args, context) =>
      connection.call(entry.toolName, args, context.signal, resultConverter(entry)),
  };
}
