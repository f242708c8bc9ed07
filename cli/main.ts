/**
 * The whole command line as a function: load the plugins `deno.json` declares, parse the
 * arguments, run, and turn what went wrong into a message and an exit code. `main.ts` calls it
 * for the process; tests call it in-process with a scripted model (see `tests/_run.ts`).
 * Exit codes: 0 completed, 1 the run ended in error, 2 usage or setup error, 130 interrupted.
 *
 * @module
 */
import { CommanderError } from "commander";
import denoJson from "../deno.json" with { type: "json" };
import { addCommands, passWordsToPluginCommand } from "./commands.ts";
import { createProgram, VERSION_REQUESTED } from "./program.ts";
import { printVersion } from "./version.ts";
import { startFromCommandLine } from "./start.ts";
import type { ModelFactory } from "./model_factory.ts";
import type { RootFlags } from "./root_flags.ts";
import { writeErr } from "../kit/output.ts";
import { type LoadedPlugin, loadPlugins, pluginEntries } from "../agent/plugin_loader.ts";
import { UsageError } from "../core/usage_error.ts";
import { createCliContext } from "../agent/context_file.ts";
import { applySettings } from "./settings_apply.ts";
import { LineReader } from "./terminal.ts";
import type { PluginContext } from "../core/plugin.ts";

/** What the caller may choose instead of the defaults (tests). */
export interface CommandLineOptions {
  /** The plugins (default: those `deno.json` declares). */
  plugins?: readonly LoadedPlugin[];
  /** The model client (default: the OpenAI-compatible client the flags describe). */
  createModel?: ModelFactory;
}

/** Runs hel with `argv` (without the program name); returns the exit code. Never throws. */
export async function runCommandLine(
  argv: string[],
  options: CommandLineOptions = {},
): Promise<number> {
  try {
    return await parseAndRun(argv, options);
  } catch (error) {
    if (error instanceof CommanderError && error.code === VERSION_REQUESTED) {
      // `hel --model x --version [--json]`: main.ts answers the plain forms before loading
      // all this; commander stops at the version flag, before it would refuse `--json`.
      return await printVersion({ json: argv.includes("--json") });
    } else if (error instanceof CommanderError) {
      // Commander already printed the message; help and version are not errors.
      return error.exitCode === 0 ? 0 : 2;
    } else if (error instanceof UsageError) {
      writeErr(`hel: ${error.message}\n`);
      return 2;
    } else if (error instanceof Deno.errors.BrokenPipe) {
      // Whoever read stdout stopped (`hel --help | grep -q x`): nothing is wrong, nothing to say.
      return 0;
    }
    writeErr(`hel: internal error: ${(error as Error).stack ?? error}\n`);
    return 1;
  }
}

async function parseAndRun(argv: string[], options: CommandLineOptions): Promise<number> {
  let exitCode = 0;
  const plugins = options.plugins ??
    await loadPlugins(pluginEntries(denoJson), new URL("../", import.meta.url));
  const program = createProgram(plugins);
  // One reader of stdin for the whole invocation: the settings review and the run share it.
  const reader = new LineReader();
  // One context for the settings and the subcommand. Its flags are commander's own values, which
  // the settings fill afterwards, so its childEnv drops the variable apiKeyEnv names. The run
  // makes its own (start.ts): its flags and log are the run's (a JSON format logs as JSON).
  let shared: Promise<PluginContext> | undefined;
  const cliContext = () => shared ??= createCliContext(program.opts(), reader);
  addCommands(program, plugins, (code) => exitCode = code, cliContext);
  passWordsToPluginCommand(program, plugins, argv);
  const pluginCommands = plugins.flatMap(({ plugin }) => plugin.commands ?? []).map((c) => c.name);
  program.hook("preAction", async (_, action) => {
    // Settings fill the flags of a run and of plugin commands (`hel mcp list` starts servers
    // in the sandbox); `hel config` reads them itself, the other commands need none.
    const run = action === program;
    if (!run && !(action.parent === program && pluginCommands.includes(action.name()))) return;
    const context = await cliContext();
    await applySettings(program, plugins, context, { review: run, warn: context.log.warn });
  });
  program.action(async (words, flags) => {
    // A format the settings chose is for one-shot runs; the chat stays a chat.
    const formatFromSettings = program.getOptionValueSource("outputFormat") === "config";
    exitCode = await startFromCommandLine(
      words,
      { ...flags, formatFromSettings } as RootFlags,
      plugins,
      options.createModel,
      reader,
    );
  });
  await program.parseAsync(argv, { from: "user" });
  return exitCode;
}
