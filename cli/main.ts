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
import { createProgram } from "./program.ts";
import { type ModelFactory, type RootFlags, startFromCommandLine } from "./start.ts";
import { writeErr } from "../kit/output.ts";
import { type LoadedPlugin, loadPlugins, pluginEntries } from "../agent/plugin_loader.ts";
import { UsageError } from "../core/usage_error.ts";

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
    if (error instanceof CommanderError) {
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
  const program = createProgram(denoJson.version, plugins);
  addCommands(program, plugins, (code) => exitCode = code);
  passWordsToPluginCommand(program, plugins, argv);
  program.action(async (words, flags) => {
    exitCode = await startFromCommandLine(words, flags as RootFlags, plugins, options.createModel);
  });
  await program.parseAsync(argv, { from: "user" });
  return exitCode;
}
