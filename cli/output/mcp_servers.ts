/**
 * The MCP servers a run started, for the init line: read from the MCP plugin's trace events
 * (the `server` entries a run record keeps in `raw/mcp.jsonl`), which name each configured
 * server once it connected or was skipped. Anything else on the channel is ignored, so the
 * list is empty for a run without servers, an untrusted configuration, or `--without mcp`.
 *
 * @module
 */
import type { HelEvent } from "../../core/events.ts";
import type { McpServerEntry } from "./messages.ts";

/** The MCP plugin's trace channel. */
const MCP_CHANNEL = "mcp";

/** Collects MCP server entries from run events, in the order they are reported. */
export function mcpServerWatch(): {
  onEvent(event: HelEvent): void;
  servers(): McpServerEntry[];
} {
  const servers: McpServerEntry[] = [];
  return {
    onEvent(event) {
      if (event.type !== "trace" || event.channel !== MCP_CHANNEL) return;
      const { data } = event;
      if (data.event !== "server" || typeof data.server !== "string") return;
      if (typeof data.status !== "string") return;
      servers.push({
        name: data.server,
        status: data.status,
        ...(typeof data.tools === "number" ? { tools: data.tools } : {}),
        ...(typeof data.reason === "string" ? { reason: data.reason } : {}),
      });
    },
    servers: () => servers.map((server) => ({ ...server })),
  };
}
