/**
 * A server's prompts as chat commands, `/mcp__<server>__<prompt> arguments` (named like its
 * tools): running one gets the prompt (`prompts/get`) and sends its messages as the person's
 * turn; Tab completes an argument with `completion/complete` when the server declares
 * `completions`. Prompts without a name, and names two prompts share once made model-safe,
 * are left out with a reason (`hel mcp list` shows it).
 *
 * @module
 */
import type { ArgumentCompletion, ChatCommand } from "../../core/mod.ts";
import { clipChars, codePointLength, isRecord } from "../../core/mod.ts";
import { modelName } from "./catalog.ts";
import {
  argumentAt,
  parseArguments,
  type PromptArgument,
  typedValue,
  usage,
} from "./prompt_arguments.ts";
import { promptText } from "./prompt_messages.ts";
import { capabilitiesOf, request, type ServerHandle } from "./server_requests.ts";

/** Characters of a prompt's description the command list shows. */
const SUMMARY_CHARS = 120;
/** Completion values offered at most (the spec's own limit per answer). */
const MAX_VALUES = 100;
/** A longer value is not offered: it would go into the person's input box. */
const MAX_VALUE_CHARS = 500;

/** A server's prompt as hel offers it. */
export interface PromptEntry {
  /** The command's name, `mcp__<server>__<prompt>`. */
  command: string;
  server: string;
  /** The server's own name for the prompt (what `prompts/get` sends). */
  name: string;
  summary: string;
  arguments: PromptArgument[];
}

/** A listed prompt hel does not offer, and why. */
export interface PromptExclusion {
  server: string;
  name: string;
  reason: string;
}

/** The prompts of one server's `prompts/list` that hel offers, and the ones it leaves out. */
export function promptEntries(
  server: string,
  listed: readonly unknown[],
): { entries: PromptEntry[]; excluded: PromptExclusion[] } {
  const entries: PromptEntry[] = [];
  const excluded: PromptExclusion[] = [];
  for (const prompt of listed) {
    if (!isRecord(prompt) || typeof prompt.name !== "string" || prompt.name === "") {
      excluded.push({
        server,
        name: "(no name)",
        reason: "the server listed a prompt without a name",
      });
      continue;
    }
    const command = modelName(server, prompt.name);
    if (entries.some((entry) => entry.command === command)) {
      excluded.push({
        server,
        name: prompt.name,
        reason: `another prompt of the server is offered as /${command} already`,
      });
      continue;
    }
    entries.push({
      command,
      server,
      name: prompt.name,
      summary: summaryOf(prompt),
      arguments: (Array.isArray(prompt.arguments) ? prompt.arguments : []).flatMap((item) =>
        isRecord(item) && typeof item.name === "string" && item.name !== ""
          ? [{
            name: item.name,
            required: item.required === true,
            ...(typeof item.description === "string" ? { description: item.description } : {}),
          }]
          : []
      ),
    });
  }
  return { entries, excluded };
}

/** The chat command of `entry`, asking its server through `handle`. */
export function promptCommand(
  entry: PromptEntry,
  handle: ServerHandle,
  timeoutMs: number,
): ChatCommand {
  const argumentText = usage(entry.arguments);
  return {
    name: entry.command,
    summary: entry.summary,
    ...(argumentText !== "" ? { argument: argumentText } : {}),
    ...(capabilitiesOf(handle).completions !== undefined && entry.arguments.length > 0
      ? { complete: (typed, signal) => complete(entry, handle, typed, signal) }
      : {}),
    async run(typed, signal) {
      const parsed = parseArguments(typed, entry.arguments);
      if (!parsed.ok) return { ok: false, error: `/${entry.command}: ${parsed.error}` };
      const answer = await request(handle, "prompts/get", {
        name: entry.name,
        ...(entry.arguments.length > 0 ? { arguments: parsed.values } : {}),
      }, { timeoutMs, signal, revive: true });
      if (!answer.ok) return { ok: false, error: answer.text };
      return promptText(entry.server, entry.name, answer.value);
    },
  };
}

/** What the last typed word may become, as typed back (`name=` kept, quoted if needed). */
async function complete(
  entry: PromptEntry,
  handle: ServerHandle,
  typed: string,
  signal: AbortSignal,
): Promise<ArgumentCompletion> {
  const at = argumentAt(typed, entry.arguments);
  if (!at) return { start: typed.length, values: [] };
  const answer = await request(handle, "completion/complete", {
    ref: { type: "ref/prompt", name: entry.name },
    argument: { name: at.argument.name, value: at.typed },
    ...(Object.keys(at.before).length > 0 ? { context: { arguments: at.before } } : {}),
  }, { timeoutMs: 5_000, signal });
  if (!answer.ok) return { start: at.start, values: [] };
  const completion = answer.value.completion;
  const values = isRecord(completion) && Array.isArray(completion.values) ? completion.values : [];
  return {
    start: at.start,
    values: values.filter((value): value is string =>
      typeof value === "string" && value !== "" && codePointLength(value) <= MAX_VALUE_CHARS
    )
      .slice(0, MAX_VALUES)
      .map((value) => `${at.prefix}${typedValue(value)}`),
  };
}

function summaryOf(prompt: Record<string, unknown>): string {
  const text = [prompt.description, prompt.title].find((value) =>
    typeof value === "string" && value.trim() !== ""
  ) as string | undefined;
  const line = (text ?? "an MCP prompt").trim().split(/\r?\n/, 1)[0]!.trim();
  return clipChars(line, SUMMARY_CHARS);
}
