/**
 * The MCP tool catalog: which listed tools are usable and why the others are not, under which
 * model-facing names (tool_names.ts), with which annotations (tool_annotations.ts), and the
 * system-message listing.
 *
 * @module
 */
import { modelDescription } from "./tool_description.ts";
import { clipChars, deferSchemaCheck, isRecord, type SchemaCheck } from "../../core/mod.ts";
import { escapeControlCharacters } from "../../kit/mod.ts";
import { filterTools, type UnmatchedEntry } from "./tool_filter.ts";
import { taskExclusion } from "./task_support.ts";
import { assignNames, type Renamed } from "./tool_names.ts";
import {
  readAnnotations,
  readOnlyByAnnotations,
  type ToolAnnotations,
} from "./tool_annotations.ts";

export { MAX_TOOL_NAME, modelName } from "./tool_names.ts";
import { outputCheck } from "./output_schema.ts";
import type { OutputCheck } from "./result.ts";

/** The listing shows at most this many characters of a description's first line. */
const LISTING_DESCRIPTION_CHARS = 300;

/** An entry of a server's `tools/list`, unvalidated (not even known to be an object). */
export type ListedTool = unknown;

/** A usable MCP tool. */
export interface CatalogEntry {
  /** Model-facing name, `mcp__<server>__<tool>`. */
  fullName: string;
  server: string;
  /** The server's own name for the tool (what `tools/call` sends). */
  toolName: string;
  /** The server's description, trimmed. */
  description: string;
  /** The server's input schema, as given. */
  inputSchema: Record<string, unknown>;
  /**
   * Checks a call's arguments against `inputSchema`, compiled by ajv at the first check or
   * {@link CatalogEntry.compileCheck}; a schema that does not compile refuses every call.
   */
  check: SchemaCheck;
  /**
   * Compiles the input schema now, once: why hel cannot check it, or undefined when it can.
   * Loading calls it, so a tool is never offered with a schema that does not compile.
   */
  compileCheck?: () => string | undefined;
  /** Why `fullName` is a hashed one rather than the sanitised tool name (tool_names.ts). */
  renamed?: Renamed;
  /** The tool's annotations as listed (untrusted unless its server's entry trusts them). */
  annotations?: ToolAnnotations;
  /**
   * True when the tool counts as a read for access levels: its server's entry says
   * `"trustAnnotations": true` and the tool `readOnlyHint: true`.
   */
  readOnly?: boolean;
  /** Checks a structured result against the tool's `outputSchema`, when it declares one. */
  checkOutput?: OutputCheck;
}

/** A listed tool hel will not offer, and why. */
export interface Exclusion {
  server: string;
  /** The server's name for the tool (or a placeholder when it had none). */
  toolName: string;
  reason: string;
}

/** Usable tools in name order, the excluded ones, and what the `tools` allowlists did. */
export interface Catalog {
  entries: CatalogEntry[];
  excluded: Exclusion[];
  /** Per server with a `tools` allowlist: how many listed tools it left out (not warned). */
  leftOut: Map<string, number>;
  /** Allowlist entries that matched no listed tool (each warned once). */
  unmatched: UnmatchedEntry[];
}

/**
 * Builds the catalog from every connected server's listing. A server's `tools` allowlist
 * (`allow`) applies first, so a tool the user did not ask for is never excluded, warned about
 * or counted as sharing a name. Tools that require tasks (task_support.ts), without an object
 * `inputSchema` or with one hel surely cannot check (invalid against its meta-schema, a `$ref`
 * that cannot resolve, too large) are excluded with a reason (the rare schema that fails only
 * when compiled is refused when the tool is loaded or called); the others
 * are named by {@link assignNames}: a name that would be too long, shared or taken (`reserved`)
 * gets a hash instead of excluding the tool. `trustAnnotations` lets a server's read-only hints
 * count (tool_annotations.ts).
 */
export async function buildCatalog(
  servers: readonly {
    name: string;
    tools: readonly ListedTool[];
    allow?: readonly string[];
    trustAnnotations?: boolean;
  }[],
  reserved: ReadonlySet<string>,
): Promise<Catalog> {
  const excluded: Exclusion[] = [];
  const candidates: Omit<CatalogEntry, "fullName">[] = [];
  const leftOut = new Map<string, number>();
  const unmatched: UnmatchedEntry[] = [];
  for (const server of servers) {
    const filtered = filterTools(server.name, server.tools, server.allow);
    if (server.allow !== undefined) leftOut.set(server.name, filtered.leftOut);
    unmatched.push(...filtered.unmatched);
    for (const tool of filtered.kept) {
      if (!isRecord(tool)) {
        excluded.push({
          server: server.name,
          toolName: "(not a tool)",
          reason: `the server listed ${JSON.stringify(tool)?.slice(0, 40)} as a tool`,
        });
        continue;
      }
      const toolName = typeof tool.name === "string" ? tool.name : "";
      if (toolName === "") {
        excluded.push({
          server: server.name,
          toolName: "(no name)",
          reason: "the server listed a tool without a name",
        });
        continue;
      }
      const needsTask = taskExclusion(tool);
      if (needsTask !== undefined) {
        excluded.push({ server: server.name, toolName, reason: needsTask });
        continue;
      }
      const schema = tool.inputSchema;
      if (!isRecord(schema) || schema.type !== "object") {
        excluded.push({
          server: server.name,
          toolName,
          reason: 'it has no object inputSchema (model APIs need "type": "object")',
        });
        continue;
      }
      // A schema hel cannot check would let calls reach hooks, the approval question and the
      // server unchecked, and would likely confuse the model too: the tool is not offered.
      // Only a cheap look now; the compile waits until the tool is loaded or called.
      const deferred = await deferSchemaCheck(schema);
      if ("error" in deferred) {
        excluded.push({ server: server.name, toolName, reason: deferred.error });
        continue;
      }
      const annotations = readAnnotations(tool);
      candidates.push({
        server: server.name,
        toolName,
        description: typeof tool.description === "string" ? modelDescription(tool.description) : "",
        inputSchema: schema,
        check: deferred.check,
        compileCheck: deferred.compile,
        checkOutput: outputCheck(tool),
        ...(annotations ? { annotations } : {}),
        readOnly: readOnlyByAnnotations(annotations, server.trustAnnotations === true),
      });
    }
  }
  const names = assignNames(candidates, reserved);
  const entries: CatalogEntry[] = [];
  candidates.forEach((candidate, index) => {
    const named = names[index]!;
    if (!named.ok) {
      excluded.push({
        server: candidate.server,
        toolName: candidate.toolName,
        reason: named.reason,
      });
    } else {
      entries.push({
        fullName: named.fullName,
        ...candidate,
        ...(named.renamed ? { renamed: named.renamed } : {}),
      });
    }
  });
  entries.sort((a, b) => a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0);
  return { entries, excluded, leftOut, unmatched };
}

/**
 * Each connected server's listing with the `tools` allowlist and the `trustAnnotations` of its
 * configuration.
 */
export function withAllowlists(
  connected: readonly {
    name: string;
    tools: readonly ListedTool[];
    connection: { config: { tools?: readonly string[]; trustAnnotations?: boolean } };
  }[],
): {
  name: string;
  tools: readonly ListedTool[];
  allow?: readonly string[];
  trustAnnotations?: boolean;
}[] {
  return connected.map(({ name, tools, connection: { config } }) => ({
    name,
    tools,
    allow: config.tools,
    trustAnnotations: config.trustAnnotations === true,
  }));
}

/** `- <name>: <first line of the description, at most 300 characters>`. */
export function listingLine(entry: CatalogEntry): string {
  const firstLine = entry.description.split(/\r?\n/, 1)[0]!.trim();
  const shown = clipChars(firstLine, LISTING_DESCRIPTION_CHARS);
  // Descriptions are server text: never let them carry terminal or bidi controls.
  const safe = escapeControlCharacters(shown);
  return safe === "" ? `- ${entry.fullName}` : `- ${entry.fullName}: ${safe}`;
}

/** The system-message section for the connected servers' tools. */
export function systemSection(entries: readonly CatalogEntry[]): string {
  const intro =
    "MCP tools from the MCP servers configured for this run. Their definitions are not " +
    "in your tool list until loaded: call load_mcp_tool with the names you need, and the " +
    "loaded tools become callable from your next request. Loading does not contact the server.";
  const lines = entries.length > 0 ? entries.map(listingLine) : ["(no tools were listed)"];
  return `${intro}\n${lines.join("\n")}`;
}
