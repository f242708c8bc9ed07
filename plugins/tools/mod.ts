/**
 * Built-in tools (placeholder until issue 3 lands).
 *
 * @module
 */
import type { Plugin } from "../../core/mod.ts";

/** Creates the plugin. */
export default function tools(): Plugin {
  return { name: "tools", description: "built-in tools (not yet implemented)" };
}
