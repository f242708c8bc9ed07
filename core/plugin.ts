/**
 * The plugin contract. A plugin is a module listed in `deno.json` under `hel.plugins` whose
 * default export is a factory `(options) => Plugin`. Everything a user can see — built-in
 * tools, hooks, skills, the MCP connector — is a plugin; the core only runs the loop and the
 * single tool-call path.
 *
 * @module
 */
import type { HelEvent } from "./events.ts";
import { type HookName, HOOKS, type InterceptionPoint, type PluginHooks } from "./plugin_hooks.ts";
import type { AccessLevel, ChatMessage, Tool } from "./types.ts";
import type { FileReading } from "./file_reading.ts";
import type { TrustedConfig, TrustKind, TrustStore } from "./trust.ts";
import type { TrustSummary } from "./trust.ts";
import type { FormAnswer, FormQuestion } from "./form.ts";

/** Writes diagnostics for the person running hel (stderr in the CLI). Must not throw. */
export interface Logger {
  /** A problem the user should see; the run goes on. Printed as `hel: warning: <text>`. */
  warn(text: string): void;
  /** A neutral progress line, printed as is. */
  info(text: string): void;
}

/**
 * A command-line flag a plugin adds to `hel`, e.g. `--sandbox <mode>`. `T` is the value the
 * plugin uses, read with `optionValue(flags, option)` (core/plugin_options.ts).
 */
export interface PluginOption<T = unknown> {
  /** Commander flag syntax: `--name <value>`, `--name`, or `--no-name`. */
  flags: string;
  description: string;
  /** Allowed values; anything else is a usage error (exit 2). */
  choices?: readonly string[];
  default?: string | boolean;
  /** Left out of `--help`: for tests and tuning, not for everyday use. */
  hidden?: boolean;
  /** Each use adds a value: the parsed value is a list of strings, empty when not given. */
  repeatable?: boolean;
  /**
   * Turns the command-line value (the string given or the default, true for a switch, the
   * list of a repeatable flag, undefined when absent) into the plugin's value. A bad value
   * throws a `UsageError` that names the flag and the fix. Without it the value is as given.
   */
  parse?(value: unknown): T;
}

/** What both plugin setup and plugin commands may use: the project, the user, the terminal. */
export interface PluginContext {
  /** The canonical working directory: the project hel acts on. */
  readonly project: string;
  /** Where hel keeps per-user state (`$HEL_HOME`, default `~/.hel`). */
  readonly helHome: string;
  /** Parsed command-line values, by camelCase flag name (`sandboxNetwork`, `tools`, ...). */
  readonly flags: Readonly<Record<string, unknown>>;
  readonly log: Logger;
  /** True when a person can answer questions on a terminal. */
  readonly interactive: boolean;
  /**
   * Asks the person a question on the terminal and returns the trimmed line, or undefined
   * when there is no terminal, input ended or `signal` aborted. Never throws.
   */
  ask(question: string, signal?: AbortSignal): Promise<string | undefined>;
  /**
   * Asks the person a question with fields (an MCP server's elicitation), drawn by the front
   * end: line by line on a plain terminal, as a box in the chat. Undefined when no one can
   * answer (no terminal, input ended); a cancel once `signal` aborts. Never throws. Absent in
   * contexts that have no one to ask.
   */
  askForm?(question: FormQuestion, signal?: AbortSignal): Promise<FormAnswer | undefined>;
  /** Records of what the user trusted (hooks, MCP), kept outside the project. */
  readonly trust: TrustStore;
  /** The environment for child processes: hel's own, minus model API keys. */
  childEnv(): Record<string, string>;
}

/** Handed to `setup`: the run's session, the access level and the tool registry. */
export interface Host extends PluginContext {
  /**
   * The session the run is in now. The chat can switch a run to a new or a saved session
   * between turns (`/clear`, `/resume`), so read it when it is needed, not once in `setup`.
   */
  readonly session: { readonly id: string; readonly dir: string; readonly resumed: boolean };
  readonly access: AccessLevel;
  /** Adds a tool offered in every request, in registration order. Names must be unique. */
  registerTool(tool: Tool): void;
  /**
   * Names of every tool registered so far. During `setup` that is what the plugins before this
   * one registered; in `ready`, every plugin's tools.
   */
  registeredToolNames(): string[];
  /**
   * Saves a large text into the session's spill folder and returns the file's absolute path,
   * or undefined when spilling is off or the save failed.
   */
  spill(text: string): Promise<string | undefined>;
  /** Sends a run event to the recorder and to every plugin's `observe`. */
  emit(event: HelEvent): void;
  /**
   * Offered by the plugin whose tools read files: notices that point the model at a file hel
   * saved or cut short (spilled and pruned results, a long context file) then say how to read
   * it. Without an offer they only name the file. The last offer wins.
   */
  offerFileReading(reading: FileReading): void;
  /**
   * The conversation as it stands (read-only), e.g. to check what the model can still see
   * after compaction. Always present in hel runs; optional so test hosts may leave it out.
   */
  conversation?(): readonly ChatMessage[];
  /**
   * The plugin's `shutdown`: work to do when the run ends, on every exit path (normal, error,
   * Ctrl-C, SIGTERM), even one taken while `setup` is still running — so register it as soon as
   * what it stops exists (a server group, a process runner). The plugin must list "shutdown"
   * in its `hooks`. Runs last registered first; a throw is a warning and the others still run.
   */
  onShutdown(stop: () => void | Promise<void>): void;
}

/** A `hel <name> ...` subcommand contributed by a plugin, e.g. `hel mcp list`. */
export interface PluginCommand {
  name: string;
  description: string;
  /** Usage after the command name, e.g. `list`. */
  usage: string;
  /** Runs the command; returns the process exit code. */
  run(args: string[], context: PluginContext): Promise<number>;
}

/**
 * A plugin. Every member but `name` and `description` is optional. The run's hooks are what
 * `setup` returns; `hel plugins list` shows the ones the plugin declares in `hooks`.
 */
export interface Plugin {
  /** Kebab-case name used by `--without` and in every message about the plugin. */
  name: string;
  /** One line for `hel plugins list`. */
  description: string;
  /** Names of the tools the plugin may add (or a pattern like `mcp__<server>__<tool>`), for listings. */
  toolNames?: readonly string[];
  /**
   * The hooks `setup` returns (and `shutdown` when it calls `host.onShutdown`), for
   * `hel plugins list`; a setup that returns a hook not listed here fails, so the list is true.
   */
  hooks?: readonly InterceptionPoint[];
  /** Flags the plugin adds to the command line. */
  options?: PluginOption[];
  /** Subcommands the plugin adds. */
  commands?: PluginCommand[];
  /** Project configurations the plugin runs only once trusted: the kinds `hel trust` accepts. */
  trustedConfigs?: readonly TrustedConfig[];
  /**
   * The `trace` event channels the plugin emits on: `--record` writes `raw/<channel>.jsonl`
   * for each, empty or not, so a reader can tell "nothing happened" from "not recorded".
   */
  traceChannels?: readonly string[];
  /**
   * Checks a project configuration of `kind` that the plugin reads (e.g. hooks.json), so
   * `hel trust` refuses a file hel would skip anyway: what is wrong (naming the place and the
   * fix), or undefined when it is valid or not this plugin's kind.
   */
  checkConfig?(kind: TrustKind, bytes: Uint8Array, path: string): string | undefined;
  /**
   * What a valid project configuration of `kind` runs, built from the parsed file, for the
   * trust review of `hel trust` (the plugin's own review passes the same summary to
   * `reviewTrust`); undefined when the file is invalid or not this plugin's kind.
   */
  summarizeConfig?(kind: TrustKind, bytes: Uint8Array, path: string): TrustSummary | undefined;
  /**
   * Registration and start-up work, once per run, in plugin order; returns the run's hooks.
   * Kind `each`; a throw is a setup error and the run does not start.
   */
  setup?(host: Host): PluginHooks | void | Promise<PluginHooks | void>;
}

/**
 * The default export of a plugin module: makes the plugin from the options `deno.json` gives
 * it (`["path/to/mod.ts", {options}]`). Every option may be left out; the plugin fills in its
 * defaults.
 */
export type PluginFactory<Options extends object = Record<string, unknown>> = (
  options?: Partial<Options>,
) => Plugin;

/** The interception points a plugin can use, in the order `plugins list` prints them. */
export const INTERCEPTION_POINTS = [
  "setup",
  ...Object.keys(HOOKS) as HookName[],
  "shutdown",
] as const;
