/**
 * hel's entry point: hide the process's environment from its children, run the command line
 * (cli/main.ts), exit with its code.
 *
 * @module
 */
import { runCommandLine } from "./cli/main.ts";
import { hideOwnEnvironment } from "./kit/process/privacy.ts";

if (import.meta.main) {
  // Before anything is started: children must not read the API key from /proc/<hel>/environ.
  hideOwnEnvironment();
  Deno.exit(await runCommandLine(Deno.args));
}
