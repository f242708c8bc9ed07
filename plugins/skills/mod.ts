/**
 * The skills plugin (placeholder).
 *
 * @module
 */
import type { Plugin } from "../../core/mod.ts";

/** Creates the plugin. */
export default function skills(): Plugin {
  return { name: "skills", description: "skills (not yet implemented)" };
}
