/**
 * `glob`: files whose path matches a glob pattern, listed by ripgrep (`rg --files`), sorted by
 * path, relative to the working directory.
 *
 * @module
 */
import type { Tool, ToolResult } from "../../core/mod.ts";
import { optionalString, requiredString, unknownArguments } from "./args.ts";
import description from "./glob.txt" with { type: "text" };
import {
  displayPath,
  formatEntries,
  runRipgrep,
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
  const unknown = unknownArguments(args, ARGS);
  if (unknown) return searchFailure(unknown);
  const pattern = requiredString(args, "pattern", true);
  if (!pattern.ok) return searchFailure(pattern.text);
  const path = optionalString(args, "path", ".", true);
  if (!path.ok) return searchFailure(path.text);
  const root = await searchRoot(deps.workspace, path.value ?? ".");
  if (!root.ok) return searchFailure(root.text);
  if (!root.isDirectory) {
    return searchFailure(`glob path must be a directory: ${path.value} is a file`);
  }
  const run = await runRipgrep(
    deps,
    ["--files", "--null", `--glob=${pattern.value}`],
    root.arg,
    signal,
  );
  if (!run.ok) return searchFailure(run.text);
  const entries = run.stdout.split("\0").filter((entry) => entry !== "").map(displayPath);
  return formatEntries(entries, run.warning);
}
