/**
 * One hel run: set up the active plugins, build the system message and the model client,
 * then hand user turns to the loop. Used by the one-shot and interactive modes alike.
 *
 * @module
 */
import type { HelEvent } from "../events.ts";
import { createHost } from "../host.ts";
import { type LoopOutcome, runLoop } from "../loop.ts";
import type { ModelClient } from "../model.ts";
import { createOpenAIClient } from "../openai_client.ts";
import type { Approver } from "../permissions.ts";
import type { Plugin, PluginContext } from "../plugin.ts";
import { createSession, type SessionPaths, writeSpillFile } from "../session_store.ts";
import { buildSystemPrompt } from "../system_prompt.ts";
import { executeToolCall } from "../tool_call.ts";
import type { AccessLevel, ChatMessage, Tool, ToolDefinition } from "../types.ts";
import { UsageError } from "../usage_error.ts";
import { emptyUsage, type RunUsage } from "../usage.ts";
import { environmentFacts, readContextFile } from "./environment.ts";

/** Settings of a run, from the command line. */
export interface RunSettings {
  model: string;
  baseUrl: string;
  apiKey: string;
  access: AccessLevel;
  env: boolean;
  /** The context file's name, or false for none. */
  contextFile: string | false;
  maxTurns: number;
  stream: boolean;
  requestTimeoutMs: number;
  maxOutputTokens: number;
  /** Spill large results into the session (off with `--no-compaction`). */
  spill: boolean;
}

/** A running session: its conversation and the means to run user turns on it. */
export interface Run {
  session: SessionPaths;
  messages: ChatMessage[];
  usage: RunUsage;
  plugins: readonly Plugin[];
  /** Appends the user's message and runs the loop until the model answers. */
  turn(text: string, signal: AbortSignal, onText?: (text: string) => void): Promise<LoopOutcome>;
  /** Rebuilds the system message from the current plugins and files. */
  refreshSystemMessage(): Promise<void>;
  /** Shuts every plugin down; never throws. */
  shutdown(): Promise<void>;
}

/** Definitions of registered tools followed by the plugins' per-request definitions. */
export function toolDefinitions(tools: ReadonlyMap<string, Tool>, plugins: readonly Plugin[]) {
  const definitions: ToolDefinition[] = [...tools.values()].map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  for (const plugin of plugins) definitions.push(...(plugin.toolDefinitions?.() ?? []));
  return definitions;
}

/** Everything `startRun` needs besides settings. */
export interface RunDeps {
  context: PluginContext;
  plugins: readonly Plugin[];
  approver: Approver;
  emit(event: HelEvent): void;
  /** Injected for tests; defaults to the OpenAI-compatible client. */
  model?: ModelClient;
}

/** Sets up plugins (in order) and returns the run; a plugin that fails setup is named. */
export async function startRun(settings: RunSettings, deps: RunDeps): Promise<Run> {
  const session = await createSession(deps.context.project);
  const { host, tools } = createHost({
    context: deps.context,
    session: { id: session.id, dir: session.dir, resumed: false },
    access: settings.access,
    spill: (text) => settings.spill ? writeSpillFile(session, text) : Promise.resolve(undefined),
    emit: deps.emit,
  });
  const started: Plugin[] = [];
  const shutdown = async () => {
    for (const plugin of [...started].reverse()) {
      try {
        await plugin.shutdown?.();
      } catch (error) {
        deps.context.log.warn(
          `plugin ${plugin.name} failed to shut down: ${(error as Error).message}`,
        );
      }
    }
  };
  for (const plugin of deps.plugins) {
    try {
      started.push(plugin);
      await plugin.setup?.(host);
    } catch (error) {
      await shutdown();
      if (error instanceof UsageError) throw error;
      throw new UsageError(`plugin ${plugin.name} failed to set up: ${(error as Error).message}`);
    }
  }

  const model = deps.model ?? createOpenAIClient({
    baseURL: settings.baseUrl,
    apiKey: settings.apiKey,
    model: settings.model,
    stream: settings.stream,
    maxOutputTokens: settings.maxOutputTokens,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxRetries: 4,
    totalTimeoutMs: Math.max(settings.requestTimeoutMs * 2, 60_000),
    backoffMs: 1_000,
    onExchange: deps.emit,
    onRetry: (attempt, delayMs, reason) => deps.emit({ type: "retry", attempt, delayMs, reason }),
  });
  const messages: ChatMessage[] = [];
  const usage = emptyUsage();
  const toolCallDeps = {
    registered: tools,
    plugins: started,
    access: settings.access,
    approver: deps.approver,
    spill: settings.spill ? (text: string) => writeSpillFile(session, text) : undefined,
    emit: deps.emit,
  };

  const run: Run = {
    session,
    messages,
    usage,
    plugins: started,
    async refreshSystemMessage() {
      const content = buildSystemPrompt({
        environment: settings.env ? environmentFacts(deps.context.project) : undefined,
        contextFile: settings.contextFile
          ? await readContextFile(deps.context.project, settings.contextFile)
          : undefined,
        plugins: started,
        onPluginError: (plugin, error) =>
          deps.context.log.warn(
            `plugin ${plugin.name} failed to build its system section: ${(error as Error).message}`,
          ),
      });
      if (messages[0]?.role === "system") messages[0] = { role: "system", content };
      else messages.unshift({ role: "system", content });
    },
    turn(text, signal, onText) {
      messages.push({ role: "user", content: text });
      return runLoop(messages, {
        model,
        toolDefinitions: () => toolDefinitions(tools, started),
        executeToolCall: async (call, callSignal) =>
          (await executeToolCall(call, toolCallDeps, callSignal)).content,
        ...(onText ? { onText } : {}),
        maxTurns: settings.maxTurns,
        usage,
        signal,
      });
    },
    shutdown,
  };
  await run.refreshSystemMessage();
  return run;
}
