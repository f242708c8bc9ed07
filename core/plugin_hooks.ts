/**
 * The hooks of a run: what a plugin's `setup` returns, each hook's kind (how the plugin driver
 * calls it across plugins) and what a throw from it means.
 *
 * @module
 */
import type { HelEvent } from "./events.ts";
import type { ChatCommand } from "./chat_command.ts";
import type {
  BlockDecision,
  ChatMessage,
  ToolCallInfo,
  ToolDefinition,
  ToolLookup,
  ToolResult,
} from "./types.ts";

/**
 * How the driver (core/plugin_driver.ts) calls one hook across the plugins that return it:
 * - `each`: every plugin, in `deno.json` order, one after the other; answers are collected;
 * - `first`: in order until one answers; that answer wins and the rest are not asked;
 * - `chain`: in order, each receiving the result the previous one left.
 *
 * `setup` is `each` and its throw is fatal; shutdown (`host.onShutdown`) runs last registered
 * first, and its throw is a warning.
 */
export type HookKind = "each" | "first" | "chain";

/**
 * What a throw from a hook means:
 * - `fatal`: the run does not start (a setup error naming plugin and hook);
 * - `block`: the tool call is refused, with a reason naming plugin and hook (fail closed);
 * - `warn`: a warning naming plugin and hook; the plugin's part is left out and the run goes on.
 */
export type HookThrow = "fatal" | "block" | "warn";

/**
 * The hooks of one run, returned by `setup`: closures over what setup made (config, servers,
 * catalogs), so a plugin keeps no run state in its module or factory. Every member is
 * optional. Each hook's kind and the meaning of a throw are in {@link HOOKS} and its JSDoc.
 */
export interface PluginHooks {
  /**
   * After every plugin's `setup`, in order: the place for work that needs the other plugins'
   * registrations (e.g. whether `read_file` is offered). Kind `each`; a throw is fatal.
   */
  ready?(): void | Promise<void>;
  /**
   * A section appended to the system message; rebuilt at start and on resume. Kind `each`; a
   * throw is a warning and the message is built without the section.
   */
  systemPrompt?(): string | undefined;
  /**
   * Lines of the system message's `Environment:` block, without the leading `- ` (e.g. the
   * shell commands run in), after the OS line; left out with `--no-env`. Read with
   * `systemPrompt`. Kind `each`; a throw is a warning and the plugin adds no line.
   */
  environmentLines?(): readonly string[];
  /**
   * Extra definitions for the next request, after the registered tools. Called per request.
   * Kind `each`; a throw is a warning and the plugin offers nothing for that request.
   */
  toolDefinitions?(): ToolDefinition[];
  /**
   * A note for the model about what changed outside the conversation since the last request
   * (e.g. an MCP server's tools), asked before each request of a turn; the plugin returns each
   * note once. It may wait briefly for a change under way (the request waits with it). Notes
   * go into the conversation as a user message (before the person's message at the start of a
   * turn), so the model reads them with the request and the session keeps them. Kind `each`; a
   * throw is a warning and the plugin adds no note that time.
   */
  requestNote?(): string | undefined | Promise<string | undefined>;
  /**
   * Slash commands the plugin adds to the chat (e.g. an MCP server's prompts), asked when the
   * chat lists, completes or runs a command, so they may change during the run. Kind `each`;
   * a throw is a warning and the plugin adds no command that time.
   */
  chatCommands?(): readonly ChatCommand[];
  /**
   * Resolves a tool name the plugin owns but did not register (e.g. MCP tools). Kind `first`;
   * a throw is a warning and the next plugin is asked.
   */
  lookupTool?(name: string): ToolLookup | undefined;
  /**
   * Runs before the permission decision; returning `{ block }` stops the call with that reason
   * for the model. Kind `first` (the first block wins; the rest do not see the call). A throw
   * BLOCKS the call (fail closed): a guard that could not decide must not let the call through;
   * the model is told which plugin failed.
   */
  beforeToolCall?(call: ToolCallInfo): Promise<BlockDecision | void>;
  /**
   * Runs after a successful call; returning a result replaces the model-visible one. Kind
   * `chain`; a throw is a warning and the result passes on unchanged.
   */
  afterToolCall?(call: ToolCallInfo, result: ToolResult): Promise<ToolResult | void>;
  /**
   * Messages to insert right after a compaction checkpoint (e.g. retained skills). `messages`
   * is the compacted conversation without them, so a plugin can leave out what is still in
   * it. They replace the previous compaction's messages and are never summarised themselves.
   * `budgetTokens` is the room left under the compaction threshold (estimated, chars/4): a
   * region larger than that would make the next request compact again. Kind `each` (each
   * plugin's budget is what the ones before it left); a throw is a warning and adds nothing.
   */
  afterCompaction?(messages: readonly ChatMessage[], budgetTokens: number): ChatMessage[];
  /**
   * Plugin state for the session journal (must be JSON), asked before each model request and at
   * each turn's end and journaled when it changed. Kind `each`; a throw is a warning and the
   * plugin's state is left out that time.
   */
  saveState?(): unknown;
  /**
   * Restores what `saveState` returned, on resume: after every plugin's `setup` and `ready`,
   * before `systemPrompt` is read. Kind `each`; a throw is a warning and the plugin goes on
   * afresh.
   */
  restoreState?(state: unknown): void;
  /**
   * Observes run events. Kind `each`; must not throw — a throw is a warning (once per plugin,
   * as events are many) and the run goes on.
   */
  observe?(event: HelEvent): void;
  /**
   * Lines saying how the plugin stands, for the person who asks (`/status` and `/mcp` in the
   * chat): e.g. each MCP server, connected or not, and its tools. Asked only then, never by the
   * loop. The lines may quote outside text (a server's name, why it stopped): whoever shows
   * them neutralises them. Kind `each`; a throw is a warning and the plugin shows no line.
   */
  status?(): readonly string[];
}

/** The names of the hooks `setup` may return. */
export type HookName = keyof PluginHooks;

/** Each hook's kind and what a throw from it means, next to the hooks they describe. */
export const HOOKS = {
  ready: { kind: "each", onThrow: "fatal" },
  systemPrompt: { kind: "each", onThrow: "warn" },
  environmentLines: { kind: "each", onThrow: "warn" },
  toolDefinitions: { kind: "each", onThrow: "warn" },
  requestNote: { kind: "each", onThrow: "warn" },
  chatCommands: { kind: "each", onThrow: "warn" },
  lookupTool: { kind: "first", onThrow: "warn" },
  beforeToolCall: { kind: "first", onThrow: "block" },
  afterToolCall: { kind: "chain", onThrow: "warn" },
  afterCompaction: { kind: "each", onThrow: "warn" },
  saveState: { kind: "each", onThrow: "warn" },
  restoreState: { kind: "each", onThrow: "warn" },
  observe: { kind: "each", onThrow: "warn" },
  status: { kind: "each", onThrow: "warn" },
} as const satisfies Record<HookName, { kind: HookKind; onThrow: HookThrow }>;

/** What a plugin can list in its `hooks`: the returned hooks and `shutdown`. */
export type InterceptionPoint = HookName | "shutdown";
