/**
 * The commands that tell how the chat stands: `/status` (model, server, access, session,
 * context used, tokens, each plugin's status), `/model [id]`, `/tools` and `/mcp`. Plugin
 * status lines and tool descriptions can be a server's text: they are neutralised here.
 *
 * @module
 */
import { escapeControlCharacters } from "../../../core/neutralise.ts";
import type { Run } from "../../../agent/run.ts";
import type { SlashCommand } from "../slash_commands.ts";
import { contextPercent } from "../context_use.ts";
import { count, oneLine, table, tokens } from "./format.ts";

const NOT_REPORTED = "not reported by the server";

/** The context line: `12,345 of 1,000,000 tokens (1%)`, `~` when estimated. */
export function contextText(run: Run): string {
  const { used, window, estimated } = run.contextUsage();
  if (used === undefined) return NOT_REPORTED;
  const figure = `${estimated ? "~" : ""}${tokens(used)}`;
  const percent = contextPercent(run);
  if (window === undefined || percent === undefined) return `${figure} tokens`;
  return `${figure} of ${tokens(window)} tokens (${percent}%)`;
}

/** The tokens line: input and output so far, or that the server did not report them. */
export function usageText(run: Run): string {
  const { inputTokens, outputTokens, modelCalls } = run.usage;
  const figure = (value: number | undefined) => value === undefined ? NOT_REPORTED : tokens(value);
  return `input ${figure(inputTokens)} · output ${figure(outputTokens)} ` +
    `(${count(modelCalls, "model call")})`;
}

/** Each plugin's status lines, neutralised, as table rows labelled with the plugin. */
function pluginRows(run: Run): [string, string][] {
  return run.pluginStatus().map(({ plugin, lines }) => [
    escapeControlCharacters(plugin),
    lines.map((line) => escapeControlCharacters(line)).join("\n"),
  ]);
}

export const statusCommand: SlashCommand = {
  name: "status",
  summary: "model, server, access, session, context used and plugins",
  run(context) {
    const { run } = context;
    context.print(table([
      ["model", escapeControlCharacters(run.model)],
      ["base URL", escapeControlCharacters(run.baseUrl)],
      ["access", run.access],
      ["session", run.session.id],
      ["context", contextText(run)],
      ["tokens", usageText(run)],
      ...pluginRows(run),
    ]));
    return Promise.resolve();
  },
};

export const modelCommand: SlashCommand = {
  name: "model",
  summary: "show the model, or use another from the next request on",
  argument: "[id]",
  async run(context, argument) {
    const { run } = context;
    const current = escapeControlCharacters(run.model);
    if (argument === "") {
      return context.print(`model: ${current} — /model <id> uses another from the next request`);
    }
    if (/\s/.test(argument)) {
      return context.print("a model id is one word, as the server names it: /model <id>");
    }
    if (argument === run.model) return context.print(`model: ${current} already`);
    await run.setModel(argument);
    context.print(
      `model: ${escapeControlCharacters(argument)} from the next request on (was ${current}); ` +
        `${escapeControlCharacters(run.baseUrl)} must serve it`,
    );
  },
};

export const toolsCommand: SlashCommand = {
  name: "tools",
  summary: "the tools the model is offered",
  run(context) {
    const offered = context.run.tools();
    if (offered.length === 0) return Promise.resolve(context.print("no tools are offered"));
    context.print(
      `${count(offered.length, "tool")} offered to the model:\n` +
        table(offered.map((tool) => [
          escapeControlCharacters(tool.name),
          escapeControlCharacters(oneLine(tool.summary, 100)),
        ])),
    );
    return Promise.resolve();
  },
};

export const mcpCommand: SlashCommand = {
  name: "mcp",
  summary: "the MCP servers and their tools",
  run(context) {
    const { run } = context;
    if (!run.plugins.some((plugin) => plugin.name === "mcp")) {
      context.print("no MCP servers: the mcp plugin is not in this run (--without mcp)");
      return Promise.resolve();
    }
    const lines = run.pluginStatus().find((status) => status.plugin === "mcp")?.lines ?? [];
    context.print(
      [
        ...(lines.length > 0 ? lines : ["no MCP servers"]).map((line) =>
          escapeControlCharacters(line)
        ),
        "hel mcp list shows each server's command, sandbox and tools",
      ].join("\n"),
    );
    return Promise.resolve();
  },
};
