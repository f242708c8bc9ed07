/**
 * Finding a server's program before starting it, so a typo reads "not found" instead of a
 * spawn error from the process-group wrapper (`setsid`) in the server's stderr.
 *
 * @module
 */

/**
 * A message when `command` cannot be found (relative to the project, or on the server's PATH),
 * so the user reads "not found" instead of a spawn error from the process-group wrapper.
 */
export async function findMissingCommand(
  command: string,
  project: string,
  env: Record<string, string>,
): Promise<string | undefined> {
  const isFile = async (path: string) => {
    try {
      return (await Deno.stat(path)).isFile;
    } catch {
      return false;
    }
  };
  if (command.includes("/")) {
    const path = command.startsWith("/") ? command : `${project}/${command}`;
    return await isFile(path) ? undefined : `command ${JSON.stringify(command)} was not found`;
  }
  const searchPath = env.PATH ?? "";
  for (const dir of searchPath.split(":")) {
    if (dir !== "" && await isFile(`${dir}/${command}`)) return undefined;
  }
  return `command ${JSON.stringify(command)} was not found on PATH`;
}
