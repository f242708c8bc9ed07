/**
 * The plugin modules a compiled hel must carry. main.ts imports each `hel.plugins` entry of
 * `deno.json` by a computed specifier, which `deno compile` cannot see, so each module is
 * passed to it with `--include` (its own imports, text files included, come along).
 *
 * @module
 */
import { pluginEntries } from "../agent/plugin_loader.ts";

/**
 * Absolute paths of the plugin modules `denoJson` declares, resolved against `root` (the
 * folder of `deno.json`). Only local modules can be embedded; anything else is an error
 * naming the entry.
 */
export async function pluginModules(denoJson: unknown, root: string): Promise<string[]> {
  const base = new URL(`file://${root.replace(/\/?$/, "/")}`);
  const paths: string[] = [];
  for (const [index, entry] of pluginEntries(denoJson).entries()) {
    const specifier = typeof entry === "string" ? entry : entry[0];
    const local = /^(\.\.?\/|\/|file:)/.test(specifier);
    if (!local) {
      throw new Error(
        `deno.json: hel.plugins[${index}] "${specifier}" is not a local module; the build ` +
          "embeds local plugin files only, so copy the plugin into the repository and list its path",
      );
    }
    const path = decodeURIComponent(new URL(specifier, base).pathname);
    try {
      if (!(await Deno.stat(path)).isFile) throw new Error("not a file");
    } catch {
      throw new Error(
        `deno.json: hel.plugins[${index}] "${specifier}": no such file ${path}; fix the path`,
      );
    }
    paths.push(path);
  }
  return paths;
}
