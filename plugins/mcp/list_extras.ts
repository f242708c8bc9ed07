/**
 * What `hel mcp list` shows of a connected server besides its tools: its resources (how many
 * it lists, and the tools the model reads them with) and its prompts as the chat commands
 * they become, with their arguments, or why one is left out.
 *
 * @module
 */
import { RESOURCE_TOOL_NAMES } from "./resource_tools.ts";
import { modelName } from "./catalog.ts";
import { promptEntries } from "./prompt_commands.ts";
import { usage } from "./prompt_arguments.ts";
import { capabilitiesOf, listAll, type ServerHandle } from "./server_requests.ts";

/** The lines (indented, server text unescaped: the caller escapes) for one server. */
export async function extraLines(server: ServerHandle, timeoutMs: number): Promise<string[]> {
  const declared = capabilitiesOf(server);
  const lines: string[] = [];
  if (declared.resources !== undefined) {
    const listed = await listAll(server, "resources/list", "resources", timeoutMs);
    const tools = RESOURCE_TOOL_NAMES.map((tool) => modelName(server.name, tool)).join(", ");
    lines.push(
      `  resources: ${
        listed.ok ? `${listed.value.length} listed` : `listing them failed (${listed.text})`
      }; the model reads them with ${tools}`,
    );
  }
  if (declared.prompts !== undefined) {
    const listed = await listAll(server, "prompts/list", "prompts", timeoutMs);
    if (!listed.ok) return [...lines, `  prompts: listing them failed (${listed.text})`];
    const { entries, excluded } = promptEntries(server.name, listed.value);
    if (entries.length === 0 && excluded.length === 0) lines.push("  prompts: none listed");
    for (const entry of entries) {
      const args = usage(entry.arguments);
      lines.push(`  prompt /${entry.command}${args === "" ? "" : ` ${args}`}: ${entry.summary}`);
    }
    for (const item of excluded) {
      lines.push(`  excluded prompt ${JSON.stringify(item.name)}: ${item.reason}`);
    }
  }
  return lines;
}
