/**
 * How the model learns of the MCP tools: `list` names every tool in the system message (what
 * hel always did), `search` names the servers and offers `search_mcp_tools` (search_tool.ts),
 * and `auto` (the default) lists until the listing would take more than a token budget, then
 * searches. The budget is counted on the listing itself (characters / 4, the usual estimate),
 * so a few tools with long descriptions count as much as many with short ones.
 *
 * @module
 */
import { type PluginOption, UsageError } from "../../core/mod.ts";
import { type CatalogEntry, systemSection } from "./catalog.ts";

/** The ways of showing the catalog. */
export const CATALOGUE_MODES = ["auto", "list", "search"] as const;
/** One of {@link CATALOGUE_MODES}. */
export type CatalogueMode = typeof CATALOGUE_MODES[number];

/**
 * Estimated tokens the listing may take before `auto` searches instead. About 4% of a
 * 128k-token context and some 150 tools with one-line descriptions: the MCP client guidance
 * (1–5% of the window) and Claude Code's switch (10%) are of the same order.
 */
export const DEFAULT_CATALOGUE_BUDGET = 5_000;

/**
 * The system message's view of the catalog: `search` with no listing, or the listing itself
 * (built once: in `auto` its length decides, and the same text is then sent).
 */
export function catalogueView(
  mode: CatalogueMode,
  budget: number,
  entries: readonly CatalogEntry[],
): { search: true } | { search: false; listing: string } {
  if (mode === "search") return { search: true };
  const listing = systemSection(entries);
  // Estimated tokens: characters / 4.
  if (mode === "auto" && Math.ceil(listing.length / 4) > budget) return { search: true };
  return { search: false, listing };
}

/** `--mcp-catalogue <auto|list|search>`. */
export const CATALOGUE_FLAG: PluginOption<CatalogueMode | undefined> = {
  flags: "--mcp-catalogue <mode>",
  description: "how the model finds MCP tools: list them in the system message, search them " +
    "(search_mcp_tools), or auto (list up to --mcp-catalogue-budget, default)",
  choices: CATALOGUE_MODES,
  parse: (value) => value === undefined ? undefined : value as CatalogueMode,
};

/** `--mcp-catalogue-budget <tokens>`. */
export const CATALOGUE_BUDGET_FLAG: PluginOption<number | undefined> = {
  flags: "--mcp-catalogue-budget <n>",
  description: "estimated tokens the MCP tool listing may take before auto mode searches " +
    `instead (default ${DEFAULT_CATALOGUE_BUDGET})`,
  parse: (value) => {
    if (value === undefined) return undefined;
    const number = Number(String(value).trim());
    if (!Number.isInteger(number) || number < 0) {
      throw new UsageError(
        `--mcp-catalogue-budget: expected a whole number of tokens, e.g. 5000, got "${value}"`,
      );
    }
    return number;
  },
};
