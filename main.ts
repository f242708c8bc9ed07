/**
 * hel's entry point: load the plugins `deno.json` declares, parse the command line, run.
 * Exit codes: 0 completed, 1 the run ended in error, 2 usage or setup error, 130 interrupted.
 *
 * @module
 */
import { CommanderError } from "commander";
import denoJson from "./deno.json" with { type: "json" };
import { addCommands } from "./cli/commands.ts";
import { createProgram } from "./cli/program.ts";
import { type RootFlags, startFromCommandLine } from "./cli/start.ts";
import { writeErr } from "./kit/output.ts";
import { loadPlugins, pluginEntries } from "./agent/plugin_loader.ts";
import { hideOwnEnvironment } from "./kit/process/privacy.ts";
import { UsageError } from "./core/usage_error.ts";

async function main(argv: string[]): Promise<number> {
  // Before anything is started: children must not read the API key from /proc/<hel>/environ.
  hideOwnEnvironment();
  let exitCode = 0;
  const plugins = await loadPlugins(pluginEntries(denoJson), new URL("./", import.meta.url));
  const program = createProgram(denoJson.version, plugins);
  addCommands(program, plugins, (code) => exitCode = code);
  program.action(async (words, flags) => {
    exitCode = await startFromCommandLine(words, flags as RootFlags, plugins);
  });
  await program.parseAsync(argv, { from: "user" });
  return exitCode;
}

if (import.meta.main) {
  let code: number;
  try {
    code = await main(Deno.args);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed the message; help and version are not errors.
      code = error.exitCode === 0 ? 0 : 2;
    } else if (error instanceof UsageError) {
      writeErr(`hel: ${error.message}\n`);
      code = 2;
    } else if (error instanceof Deno.errors.BrokenPipe) {
      // Whoever read stdout stopped (`hel --help | grep -q x`): nothing is wrong, nothing to say.
      code = 0;
    } else {
      writeErr(`hel: internal error: ${(error as Error).stack ?? error}\n`);
      code = 1;
    }
  }
  Deno.exit(code);
}
