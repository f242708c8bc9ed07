/**
 * hel's entry point: hide the process's environment from its children, run the command line
 * (cli/main.ts), exit with its code. `--version` is answered first, without loading the
 * command line and its plugins, so that it stays fast.
 *
 * @module
 */
import { hideOwnEnvironment } from "./kit/process/privacy.ts";
import { printVersion, versionRequest } from "./cli/version.ts";

if (import.meta.main) {
  // Before anything is started: children must not read the API key from /proc/<hel>/environ.
  hideOwnEnvironment();
  const version = versionRequest(Deno.args);
  if (version) Deno.exit(await printVersion(version));
  // A literal specifier, so that `deno compile` embeds the module graph behind it.
  const { runCommandLine } = await import("./cli/main.ts");
  Deno.exit(await runCommandLine(Deno.args));
}
