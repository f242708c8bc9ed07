/**
 * The plugin driver: the one place that calls plugin hooks. It sets the plugins up in order,
 * runs the `ready` phase, and calls each hook the way core/plugin.ts declares it (`HOOKS`:
 * first answer wins, each in order, chained result, reverse order), turning a throw into
 * what the declaration says: a setup error, a blocked call, or a warning naming plugin and hook.
 *
 * @module
 */
import { PluginHookError } from "./errors.ts";
import type { HelEvent } from "./events.ts";
import type { Host, Plugin } from "./plugin.ts";
import type { ChatCommand } from "./chat_command.ts";
import type { HOOKS, PluginHooks } from "./plugin_hooks.ts";
import type {
  BlockDecision,
  ChatMessage,
  ToolCallInfo,
  ToolDefinition,
  ToolLookup,
  ToolResult,
} from "./types.ts";

/** A plugin that has been set up: its name and the hooks its `setup` returned. */
export interface StartedPlugin {
  readonly name: string;
  readonly hooks: PluginHooks;
}

/** The host before the driver adds each plugin's own `onShutdown`. */
export type RunHost = Omit<Host, "onShutdown">;

type Stop = { plugin: string; stop: () => void | Promise<void> };

/** Calls every plugin hook of one run. */
export class PluginDriver {
  readonly #started: StartedPlugin[];
  readonly #stops: Stop[] = [];
  readonly #warn: (text: string) => void;
  /** Plugins whose `observe` threw: reported once, as events are many. */
  readonly #observeFailed = new Set<string>();
  #stopping: Promise<void> | undefined;

  /**
   * `warn` receives every reported hook failure. `started` is for tests: plugins taken as set
   * up, with their hooks; a run calls `start` instead.
   */
  constructor(warn: (text: string) => void, started: readonly StartedPlugin[] = []) {
    this.#warn = warn;
    this.#started = [...started];
  }

  /**
   * Sets up the plugins in order, then runs every `ready`. A throw from either is fatal: it is
   * rethrown as a {@link PluginHookError}, and `shutdown` still stops what had started.
   */
  async start(plugins: readonly Plugin[], host: RunHost): Promise<void> {
    for (const plugin of plugins) {
      const hooks = await this.#setUp(plugin, host);
      this.#started.push({ name: plugin.name, hooks });
    }
    for (const { name, hooks } of this.#started) {
      try {
        await hooks.ready?.();
      } catch (error) {
        throw new PluginHookError(name, "ready", error);
      }
    }
  }

  async #setUp(plugin: Plugin, host: RunHost): Promise<PluginHooks> {
    const declared = new Set<string>(plugin.hooks ?? []);
    const own: Host = {
      ...host,
      onShutdown: (stop) => {
        if (!declared.has("shutdown")) {
          throw new TypeError('onShutdown needs "shutdown" in the plugin\'s hooks list');
        }
        this.#stops.push({ plugin: plugin.name, stop });
      },
    };
    let hooks: PluginHooks;
    try {
      hooks = (await plugin.setup?.(own)) ?? {};
    } catch (error) {
      throw new PluginHookError(plugin.name, "setup", error);
    }
    const undeclared = Object.keys(hooks).filter((name) => !declared.has(name));
    if (undeclared.length > 0) {
      throw new PluginHookError(
        plugin.name,
        "setup",
        `it returned ${undeclared.join(", ")}, which its hooks list does not name`,
      );
    }
    return hooks;
  }

  /** Every `each` call: the hook of each plugin in order; a throw is reported and skipped. */
  #each<T>(
    hook: keyof typeof HOOKS,
    call: (hooks: PluginHooks) => T | undefined,
  ): { name: string; value: T }[] {
    const answers: { name: string; value: T }[] = [];
    for (const { name, hooks } of this.#started) {
      if (hooks[hook] === undefined) continue;
      try {
        const value = call(hooks);
        if (value !== undefined) answers.push({ name, value });
      } catch (error) {
        this.#warn(new PluginHookError(name, hook, error).message);
      }
    }
    return answers;
  }

  /** The plugins' sections of the system message, in order (blank ones left out). */
  systemSections(): string[] {
    return this.#each("systemPrompt", (hooks) => hooks.systemPrompt!())
      .map(({ value }) => value)
      .filter((section) => section.trim() !== "");
  }

  /** The plugins' lines of the system message's `Environment:` block, in order. */
  environmentLines(): string[] {
    return this.#each("environmentLines", (hooks) => hooks.environmentLines!())
      .flatMap(({ value }) => value);
  }

  /** The plugins' per-request tool definitions, in order. */
  toolDefinitions(): ToolDefinition[] {
    return this.#each("toolDefinitions", (hooks) => hooks.toolDefinitions!())
      .flatMap(({ value }) => value);
  }

  /** The plugins' notes for the next request, in order (blank ones left out). */
  async requestNotes(): Promise<string[]> {
    const notes: string[] = [];
    for (const { name, hooks } of this.#started) {
      if (!hooks.requestNote) continue;
      try {
        const note = await hooks.requestNote();
        if (note !== undefined && note.trim() !== "") notes.push(note);
      } catch (error) {
        this.#warn(new PluginHookError(name, "requestNote", error).message);
      }
    }
    return notes;
  }

  /** The plugins' chat commands, in plugin order; a name taken already is left out. */
  chatCommands(): ChatCommand[] {
    const seen = new Set<string>();
    return this.#each("chatCommands", (hooks) => hooks.chatCommands!())
      .flatMap(({ value }) => value)
      .filter((command) => !seen.has(command.name) && seen.add(command.name));
  }

  /** The first plugin's answer for a tool name nobody registered. */
  lookupTool(name: string): ToolLookup | undefined {
    for (const { name: plugin, hooks } of this.#started) {
      if (!hooks.lookupTool) continue;
      try {
        const found = hooks.lookupTool(name);
        if (found) return found;
      } catch (error) {
        // The plugin's fault, not the model's: the other plugins may still answer.
        this.#warn(new PluginHookError(plugin, "lookupTool", error, name).message);
      }
    }
    return undefined;
  }

  /**
   * The first block among the plugins' `beforeToolCall`; undefined lets the call go on. A
   * plugin that throws blocks the call (fail closed): a guard that could not decide must not
   * let the call through. The model is told which plugin failed; the user gets a warning.
   */
  async beforeToolCall(call: ToolCallInfo): Promise<BlockDecision | undefined> {
    for (const { name, hooks } of this.#started) {
      if (!hooks.beforeToolCall) continue;
      try {
        const decision = await hooks.beforeToolCall(call);
        if (decision) return decision;
      } catch (error) {
        const failure = new PluginHookError(name, "beforeToolCall", error, call.name);
        this.#warn(`${failure.message}; the call was blocked`);
        return {
          block: `${failure.message}. The call was blocked, because a check that cannot ` +
            "finish does not let a call through. This is a fault in hel or a plugin, not in " +
            "your call; try another way, or tell the user what failed",
        };
      }
    }
    return undefined;
  }

  /** The result after every plugin's `afterToolCall`, each seeing the previous one's. */
  async afterToolCall(call: ToolCallInfo, result: ToolResult): Promise<ToolResult> {
    let current = result;
    for (const { name, hooks } of this.#started) {
      if (!hooks.afterToolCall) continue;
      try {
        current = (await hooks.afterToolCall(call, current)) ?? current;
      } catch (error) {
        this.#warn(new PluginHookError(name, "afterToolCall", error, call.name).message);
      }
    }
    return current;
  }

  /**
   * The plugins' messages for right after a checkpoint, in order; `budget` gives each plugin
   * the room left once the messages of the plugins before it are counted.
   */
  afterCompaction(
    messages: readonly ChatMessage[],
    budget: (region: readonly ChatMessage[]) => number,
  ): ChatMessage[] {
    const region: ChatMessage[] = [];
    this.#each("afterCompaction", (hooks) => {
      region.push(...hooks.afterCompaction!(messages, budget(region)));
    });
    return region;
  }

  /** Each plugin's saved state by plugin name, as JSON will keep it. */
  saveStates(): Record<string, unknown> {
    // Only JSON survives a snapshot; a round trip keeps what will really be restored.
    const states = this.#each("saveState", (hooks) => {
      const state = hooks.saveState!();
      return state === undefined ? undefined : JSON.parse(JSON.stringify(state)) as unknown;
    });
    return Object.fromEntries(states.map(({ name, value }) => [name, value]));
  }

  /** Hands each plugin the state it saved; a plugin that fails starts afresh, with a warning. */
  restoreStates(saved: Record<string, unknown>): void {
    for (const { name, hooks } of this.#started) {
      if (!hooks.restoreState || !Object.hasOwn(saved, name)) continue;
      try {
        hooks.restoreState(saved[name]);
      } catch (error) {
        this.#warn(`${new PluginHookError(name, "restoreState", error).message}; it starts afresh`);
      }
    }
  }

  /** Hands an event to every observer; one that throws is reported once and keeps observing. */
  observe(event: HelEvent): void {
    for (const { name, hooks } of this.#started) {
      if (!hooks.observe) continue;
      try {
        hooks.observe(event);
      } catch (error) {
        // Marked before reporting: the report is an event too, and must not report again.
        if (this.#observeFailed.has(name)) continue;
        this.#observeFailed.add(name);
        this.#warn(new PluginHookError(name, "observe", error).message);
      }
    }
  }

  /** Each plugin's status lines, in order; a plugin with none (or whose hook threw) is left out. */
  status(): { plugin: string; lines: string[] }[] {
    return this.#each("status", (hooks) => hooks.status!())
      .map(({ name, value }) => ({ plugin: name, lines: [...value] }))
      .filter(({ lines }) => lines.length > 0);
  }

  /** Runs every registered shutdown, last first; once only, whoever asks (end, signal, error). */
  shutdown(): Promise<void> {
    return this.#stopping ??= (async () => {
      for (const { plugin, stop } of [...this.#stops].reverse()) {
        try {
          await stop();
        } catch (error) {
          this.#warn(new PluginHookError(plugin, "shutdown", error).message);
        }
      }
    })();
  }
}
