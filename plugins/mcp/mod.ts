/**
 * The mcp plugin (placeholder).
 *
 * @module
 */
import type { Plugin } from "../../core/mod.ts";

/** Creates the plugin. */
export default function mcp(): Plugin {
  return { name: "mcp", description: "mcp (not yet implemented)" };
}
