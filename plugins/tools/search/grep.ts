/**
 * `grep`: lines matching a regular expression, found by ripgrep, as `path:line:text`.
 *
 * @module
 */
import { defineTool, type Tool, type ToolResult, z } from "../../../core/mod.ts";
import description from "./grep.txt" with { type: "text" };
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
  pattern: z.string().min(1).describe("Regular expression (Rust regex syntax)"),
  path: z.string().min(1).describe("File or folder to search (default: working directory)")
    .optional(),
  include: z.string().min(1).describe("Only search files matching this glob, e.g. *.ts")
    .optional(),
});

/** Creates the tool. */
export function grepTool(deps: SearchDeps): Tool {
  return defineTool({
    name: "grep",
    description,
    parameters,
    toolClass: "read",
    category: "search",
    ruleTarget: ({ path = "." }) => treeTarget(deps.workspace, path),
    run: (args, context) => grep(deps, args, context.signal),
  });
}

interface RgText {
  text?: string;
  bytes?: string;
}

function rgText(value: RgText | undefined): string {
  if (!value) return "";
  if (typeof value.text === "string") return value.text;
  if (typeof value.bytes === "string") {
    const bytes = Uint8Array.from(atob(value.bytes), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  return "";
}

/** `path:line:text` for every match line of ripgrep's `--json` output. */
export function matchLines(json: string): string[] {
  const lines: string[] = [];
  for (const line of json.split("\n")) {
    if (!line.startsWith('{"type":"match"')) continue;
    try {
      const { data } = JSON.parse(line) as {
        data: { path?: RgText; lines?: RgText; line_number?: number };
      };
      const text = rgText(data.lines).replace(/\r?\n$/, "");
      lines.push(`${displayPath(rgText(data.path))}:${data.line_number ?? "?"}:${text}`);
    } catch {
      // A line ripgrep did not finish (output cut at the capture bound): skip it.
    }
  }
  return lines;
}

async function grep(
  deps: SearchDeps,
  { pattern, path = ".", include }: z.infer<typeof parameters>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const root = await searchRoot(deps.workspace, path);
  if (!root.ok) return searchFailure(root.text);
  const rgArgs = ["--json", `--regexp=${pattern}`];
  if (include !== undefined) rgArgs.push(`--glob=${include}`);
  const run = await runRipgrep(deps, rgArgs, root.arg, signal);
  if (!run.ok) return searchFailure(run.text);
  return formatEntries(matchLines(run.stdout), run.warning);
}
