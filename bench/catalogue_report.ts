/**
 * The Markdown sections of the catalogue benchmark (catalogue_cost.ts) and of 50 servers
 * (many_servers.ts).
 *
 * @module
 */
import type { CatalogueCost } from "./catalogue_cost.ts";
import type { ManyServers } from "./many_servers.ts";

const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
const int = (value: number) => Math.round(value).toLocaleString("en-US");
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
    [
      line([
        "MCP tools",
        "mode",
        "requests",
        "first request tokens",
        "trajectory tokens",
        "ratio",
        "spawn → first request ms",
      ]),
      line(["---", "---", "---", "---", "---", "---", "---"]),
      ...cost.rows.map((row) =>
        line([
          int(row.tools),
          row.mode,
          String(row.requests),
          int(row.firstTokens),
          int(row.totalTokens),
          ratio(row.totalTokens),
          int(row.firstRequestMs),
        ])
      ),
    ].join("\n"),
    `Search quality on ${cost.recall.tools} real tools of npm MCP servers ` +
    `(fixtures/mcp/catalogue/), ${cost.recall.queries} tasks as people state them: recall@1 ` +
    `${pct(cost.recall.at1)}, recall@5 ${pct(cost.recall.at5)}.`,
  ];
}

/** Start-up with many servers. */
export function formatManyServers(many: ManyServers): string[] {
  const mib = (value: number | undefined) => value === undefined ? "n/a" : value.toFixed(0);
  return [
    `## ${many.servers} MCP servers`,
    `${many.servers} fixture servers (10 tools each, ${many.delayMs} ms to start, sandboxed), ` +
    `started together; medians of ${many.runs} runs.`,
    [
      line(["spawn → first request ms", "hel mcp list ms", "hel peak MiB", "servers MiB"]),
      line(["---", "---", "---", "---"]),
      line([
        int(many.firstRequestMs),
        int(many.listMs),
        mib(many.helMiB),
        mib(many.serversMiB),
      ]),
    ].join("\n"),
  ];
}
