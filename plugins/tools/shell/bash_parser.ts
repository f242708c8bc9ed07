/**
 * The bash grammar of tree-sitter (npm `tree-sitter-bash`, run by `web-tree-sitter`), loaded
 * the first time a command line must be read — a permission question about a `bash` call, or a
 * rule that names `bash` with content — so runs that need neither never load it. A load that
 * fails is tried once: every later command line then counts as unreadable.
 *
 * @module
 */
import type { Node, Parser } from "web-tree-sitter";
import { errorMessage } from "../../../core/mod.ts";

export type { Node } from "web-tree-sitter";

let loading: Promise<Parser | string> | undefined;

async function load(): Promise<Parser | string> {
  try {
    const { Language, Parser } = await import("web-tree-sitter");
    // Names the grammar package in the module graph (a literal import `deno compile` follows),
    // so a built hel embeds its .wasm file; imported only here, as resolving the package costs
    // every start of hel a few hundredths of a second.
    await import("tree-sitter-bash/package.json", { with: { type: "json" } });
    await Parser.init();
    const url = new URL(import.meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    const language = await Language.load(await Deno.readFile(url));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  } catch (error) {
    return `the bash parser (tree-sitter-bash) could not be loaded: ${errorMessage(error)}`;
  }
}

/**
 * Parses `source` and hands the syntax tree's root to `read` (the tree is freed after), or
 * returns why the parser is unavailable.
 */
export async function withBashTree<T>(
  source: string,
  read: (root: Node) => T,
): Promise<{ ok: true; value: T } | { ok: false; problem: string }> {
  const parser = await (loading ??= load());
  if (typeof parser === "string") return { ok: false, problem: parser };
  const tree = parser.parse(source);
  if (!tree) return { ok: false, problem: "the bash parser gave no syntax tree" };
  try {
    return { ok: true, value: read(tree.rootNode) };
  } finally {
    tree.delete();
  }
}
