/**
 * The hooks plugin (placeholder).
 *
 * @module
 */
import type { Plugin } from "../../core/mod.ts";

/** Creates the plugin. */
export default function hooks(): Plugin {
  return { name: "hooks", description: "hooks (not yet implemented)" };
}
