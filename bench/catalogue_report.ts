/**
 * The Markdown sections of the catalogue benchmark (catalogue_cost.ts) and of 50 servers
 * (many_servers.ts).
 *
 * @module
 */
import type { CatalogueCost } from "./catalogue_cost.ts";
import type { ManyServers } from "./many_servers.ts";
import { int, table } from "./table.ts";

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** The port task's cost per tool count and mode, and search quality. */
export function formatCatalogueCost(cost: CatalogueCost): string[] {
  const base = cost.rows.find((row) => row.tools === 10 && row.mode === "list");
  const ratio = (tokens: number) => base ? `${(tokens / base.totalTokens).toFixed(2)}×` : "n/a";
  return [
    "## The port task at scale (search mode)",
    "evals' mcp-port-lookup-01 with the inventory server offering N tools, played by the h10 " +
    "policy: eager (`--mcp-eager`: call, edit, answer), list (`--mcp-catalogue list`: load, " +
    "call, edit, answer), search (`--mcp-catalogue search`: search, load, call, edit, answer). " +
    "Tokens are estimated (characters / 4); trajectory = every request summed; ratio = " +
    "trajectory / list with 10 tools.",
    table(
      [
        "MCP tools",
        "mode",
        "requests",
        "first request tokens",
        "trajectory tokens",
        "ratio",
        "spawn → first request ms",
        "hel peak MiB",
      ],
      cost.rows.map((row) => [
        int(row.tools),
        row.mode,
        String(row.requests),
        int(row.firstTokens),
        int(row.totalTokens),
        ratio(row.totalTokens),
        int(row.firstRequestMs),
        row.peakMiB === undefined ? "n/a" : row.peakMiB.toFixed(0),
      ]),
    ),
    `Search quality on ${cost.recall.tools} real tools of npm MCP servers ` +
    `(fixtures/mcp/catalogue/), ${cost.recall.queries} tasks as people state them: recall@1 ` +
    `${pct(cost.recall.at1)}, recall@5 ${pct(cost.recall.at5)}.`,
    "Building in process (`bench/catalog_build.ts`: the fixture's real tools repeated under " +
    "numbered names; medians, ms): " +
    cost.build.map((row) =>
      `${int(row.tools)} tools: catalog ${int(row.buildMs)}, loading one tool ` +
      `${row.loadOneMs.toFixed(1)}, search index in one go ${int(row.indexMs)}, a search ` +
      `${row.searchMs.toFixed(1)}`
    ).join("; ") + ".",
  ];
}

/** Start-up with many servers. */
export function formatManyServers(many: ManyServers): string[] {
  const mib = (value: number | undefined) => value === undefined ? "n/a" : value.toFixed(0);
  return [
    `## ${many.servers} MCP servers`,
    `${many.servers} fixture servers (10 tools each, ${many.delayMs} ms to start, sandboxed), ` +
    `started together; medians of ${many.runs} runs.`,
    table(
      ["spawn → first request ms", "hel mcp list ms", "hel peak MiB", "servers MiB"],
      [[
        int(many.firstRequestMs),
        int(many.listMs),
        mib(many.helMiB),
        mib(many.serversMiB),
      ]],
    ),
  ];
}
