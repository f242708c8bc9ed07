/**
 * Finding a server's program before starting it, so a typo or a script without its executable
 * bit reads as such instead of a spawn error from the process-group wrapper (`setsid`) in the
 * server's stderr.
 *
 * @module
 */

/**
 * A message when `command` cannot be started: not found (relative to the project, or on the
 * server's PATH), or a file that is not executable. Undefined when it looks startable.
 */
export async function findMissingCommand(
  command: string,
  project: string,
  env: Record<string, string>,
): Promise<string | undefined> {
  const kind = async (path: string) => {
    try {
      const info = await Deno.stat(path);
      if (info.isDirectory) return "directory";
      if (!info.isFile) return "missing";
      return ((info.mode ?? 0o111) & 0o111) !== 0 ? "executable" : "not-executable";
    } catch {
      return "missing";
    }
  };
  if (command.includes("/")) {
    const found = await kind(command.startsWith("/") ? command : `${project}/${command}`);
    if (found === "executable") return undefined;
    if (found === "missing") {
      return `command ${JSON.stringify(command)} was not found${shellHint(command)}`;
    }
    if (found === "directory") return `command ${JSON.stringify(command)} is a directory`;
    return `command ${JSON.stringify(command)} is not executable; make it executable ` +
      `(chmod +x) or name its interpreter as the command, e.g. "command": "python3", ` +
      `"args": [${JSON.stringify(command)}]`;
  }
  // Like the system's own lookup, a file on PATH counts only when it is executable.
  for (const dir of (env.PATH ?? "").split(":")) {
    if (dir !== "" && await kind(`${dir}/${command}`) === "executable") return undefined;
  }
  return `command ${JSON.stringify(command)} was not found on PATH${shellHint(command)}`;
}

/** Shell habits that do not apply: hel starts the program itself, not through a shell. */
function shellHint(command: string): string {
  if (!command.startsWith("~") && !command.includes("$")) return "";
  return " (hel starts it without a shell, so ~ and $VARIABLES are not expanded; write the " +
    "full path)";
}
