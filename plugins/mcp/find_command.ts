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
  const onPath = async (program: string) => {
    for (const dir of (env.PATH ?? "").split(":")) {
      if (dir !== "" && await kind(`${dir}/${program}`) === "executable") {
        return `${dir}/${program}`;
      }
    }
    return undefined;
  };
  if (command.includes("/")) {
    const path = command.startsWith("/") ? command : `${project}/${command}`;
    const found = await kind(path);
    if (found === "executable") return await missingInterpreter(command, path, kind, onPath);
    if (found === "missing") {
      return `command ${JSON.stringify(command)} was not found${shellHint(command)}`;
    }
    if (found === "directory") return `command ${JSON.stringify(command)} is a directory`;
    return `command ${JSON.stringify(command)} is not executable; make it executable ` +
      `(chmod +x) or name its interpreter as the command, e.g. "command": "python3", ` +
      `"args": [${JSON.stringify(command)}]`;
  }
  // Like the system's own lookup, a file on PATH counts only when it is executable.
  const found = await onPath(command);
  if (found) return await missingInterpreter(command, found, kind, onPath);
  return `command ${JSON.stringify(command)} was not found on PATH${shellHint(command)}`;
}

/**
 * A script whose `#!` line names a missing interpreter fails to start with "No such file or
 * directory" about the script itself, which exists; name the interpreter instead.
 */
async function missingInterpreter(
  command: string,
  path: string,
  kind: (path: string) => Promise<string>,
  onPath: (program: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  let head: string;
  try {
    using file = await Deno.open(path);
    const buffer = new Uint8Array(256);
    const read = await file.read(buffer) ?? 0;
    head = new TextDecoder().decode(buffer.subarray(0, read));
  } catch {
    return undefined; // unreadable: let the start itself report it
  }
  if (!head.startsWith("#!")) return undefined;
  const line = head.slice(2).split("\n")[0]!.trim();
  const [interpreter, argument] = line.split(/\s+/);
  if (!interpreter) return undefined;
  const fix = "install it or correct the script's first line";
  const quoted = JSON.stringify(command);
  if (await kind(interpreter) !== "executable") {
    return `command ${quoted} starts with "#!${line}", but ${interpreter} was not found; ${fix}`;
  }
  // "#!/usr/bin/env NAME" looks NAME up on the server's PATH.
  const viaEnv = interpreter.endsWith("/env") && argument && !argument.startsWith("-");
  if (viaEnv && !(await onPath(argument))) {
    return `command ${quoted} starts with "#!${line}", but ${argument} was not found on PATH; ` +
      fix;
  }
  return undefined;
}

/** Shell habits that do not apply: hel starts the program itself, not through a shell. */
function shellHint(command: string): string {
  if (!command.startsWith("~") && !command.includes("$")) return "";
  return " (hel starts it without a shell, so ~ and $VARIABLES are not expanded; write the " +
    "full path)";
}
