/**
 * `glob`: files whose path matches a glob pattern, listed by ripgrep (`rg --files`), sorted by
 * path, relative to the working directory.
 *
 * @module
 */
import type { Tool, ToolResult } from "../../../core/mod.ts";
import description from "./glob.txt" with { type: "text" };
import {
  displayPath,
  formatEntries,
  runRipgrep,
  searchArguments,
  type SearchDeps,
  searchFailure,
  searchRoot,
} from "./ripgrep.ts";

const ARGS = ["pattern", "path"] as const;

/** Creates the tool. */
export function globTool(deps: SearchDeps): Tool {
  return {
    name: "glob",
    description,
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Glob pattern, e.g. **/*.ts or src/*.json" },
        path: { type: "string", description: "Folder to search in (default: working directory)" },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    toolClass: "read",
    category: "search",
    run: (args, context) => glob(deps, args, context.signal),
  };
}

async function glob(
  deps: SearchDeps,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const checked = searchArguments(args, ARGS);
  if (!checked.ok) return searchFailure(checked.text);
  const { pattern, path } = checked.value;
  const root = await searchRoot(deps.workspace, path);
  if (!root.ok) return searchFailure(root.text);
  if (!root.isDirectory) return searchFailure(`glob path must be a directory: ${path} is a file`);
  const run = await runRipgrep(deps, ["--files", "--null", `--glob=${pattern}`], root.arg, signal);
  if (!run.ok) return searchFailure(run.text);
  const entries = run.stdout.split("\0").filter((entry) => entry !== "").map(displayPath);
  return formatEntries(entries, run.warning);
}
