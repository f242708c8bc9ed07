/**
 * The note that tells the model, with its next request, what MCP servers changed since it last
 * heard: tools added (to load before calling), removed (and unloaded), changed (the new
 * definition in its tool list when loaded), and resources that came and went. It is hel's
 * text, not the person's, and says so. Each part lists at most {@link NOTE_LINES} lines; a
 * server that changes hundreds of tools gets a count for the rest.
 *
 * @module
 */
import { listingLine, modelName } from "./catalog.ts";
import type { ToolChanges } from "./offered_tools.ts";
import type { ResourceChanges } from "./resource_changes.ts";
import { LOAD_TOOL_NAME } from "./load_tool.ts";

/** Lines one part of the note lists at most. */
export const NOTE_LINES = 20;

/** The note, or undefined when nothing changed. */
export function changeNote(
  tools: ToolChanges | undefined,
  resources: readonly ResourceChanges[],
  loader: string = LOAD_TOOL_NAME,
): string | undefined {
  const parts: string[] = [];
  if (tools) parts.push(...toolParts(tools, loader));
  for (const change of resources) parts.push(resourcePart(change));
  if (parts.length === 0) return undefined;
  return "[hel: MCP servers changed what they offer since your last request; this note is " +
    `from hel, not from the user]\n${parts.join("\n")}`;
}

function toolParts(changes: ToolChanges, loader: string): string[] {
  const parts: string[] = [];
  if (changes.added.length > 0) {
    parts.push(
      changes.eager
        ? "New MCP tools, in your tool list from this request:"
        : `New MCP tools (call ${loader} with ${nameIn(loader)} before calling it):`,
      ...bounded(changes.added.map(listingLine)),
    );
  }
  if (changes.removed.length > 0) {
    parts.push(
      "MCP tools their servers removed (no longer callable):",
      ...bounded(
        changes.removed.map(({ fullName, wasLoaded }) =>
          `- ${fullName}${wasLoaded ? " (it was loaded; it is gone from your tool list)" : ""}`
        ),
      ),
    );
  }
  if (changes.changed.length > 0) {
    parts.push(
      "MCP tools whose definition changed:",
      ...bounded(
        changes.changed.map(({ entry, loaded }) =>
          `${listingLine(entry)}${
            loaded
              ? " (loaded: its new definition is in your tool list)"
              : ` (not loaded: call ${loader}${
                loader === LOAD_TOOL_NAME ? "" : ` with ${nameIn(loader)}`
              } to use it)`
          }`
        ),
      ),
    );
  }
  return parts;
}

/** How the loading tool takes a name: `load_mcp_tool`'s "names", search's "load" list. */
function nameIn(loader: string): string {
  return loader === LOAD_TOOL_NAME ? "a name" : 'its name in "load"';
}

function resourcePart(change: ResourceChanges): string {
  const list = modelName(change.server, "list_resources");
  if (change.unknown) {
    return `MCP server ${change.server} changed its resources; ${list} lists them now.`;
  }
  const lines: string[] = [];
  if (change.added.length > 0) {
    lines.push(`New resources of MCP server ${change.server}:`, ...bounded(change.added));
  }
  if (change.removed.length > 0) {
    lines.push(
      `Resources MCP server ${change.server} removed:`,
      ...bounded(change.removed.map((uri) => `- ${uri}`)),
    );
  }
  return lines.join("\n");
}

/** At most {@link NOTE_LINES} lines, then how many more there are. */
function bounded(lines: readonly string[]): string[] {
  if (lines.length <= NOTE_LINES) return [...lines];
  return [...lines.slice(0, NOTE_LINES), `- … and ${lines.length - NOTE_LINES} more`];
}
