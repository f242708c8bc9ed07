/**
 * `glob`: files whose path matches a glob pattern, listed by ripgrep (`rg --files`), sorted by
 * path, relative to the working directory.
 *
 * @module
 */
import { defineTool, type Tool, type ToolResult, z } from "../../../core/mod.ts";
import description from "./glob.txt" with { type: "text" };
import { treeTarget } from "../workspace/rule_path.ts";
import {
  displayPath,
  formatEntries,
  runRipgrep,
  type SearchDeps,
  searchFailure,
  searchRoot,
} from "./ripgrep.ts";

const parameters = z.strictObject({
  pattern: z.string().min(1).describe("Glob pattern, e.g. **/*.ts or src/*.json"),
  path: z.string().min(1).describe("Folder to search in (default: working directory)").optional(),
});

/** Creates the tool. */
export function globTool(deps: SearchDeps): Tool {
  return defineTool({
    name: "glob",
    description,
    parameters,
    toolClass: "read",
    category: "search",
    ruleTarget: ({ path = "." }) => treeTarget(deps.workspace, path),
    run: (args, context) => glob(deps, args, context.signal),
  });
}

async function glob(
  deps: SearchDeps,
  { pattern, path = "." }: z.infer<typeof parameters>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const root = await searchRoot(deps.workspace, path);
  if (!root.ok) return searchFailure(root.text);
  if (!root.isDirectory) return searchFailure(`glob path must be a directory: ${path} is a file`);
  const run = await runRipgrep(deps, ["--files", "--null", `--glob=${pattern}`], root.arg, signal);
  if (!run.ok) return searchFailure(run.text);
  const entries = run.stdout.split("\0").filter((entry) => entry !== "").map(displayPath);
  return formatEntries(entries, run.warning);
}
