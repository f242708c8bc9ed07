/**
 * `hel mcp add` and `hel mcp remove`: change one server entry of the person's
 * `$HEL_HOME/mcp.json` or the project's `.hel/mcp.json`, keeping the file's comments. A new
 * entry is checked by the loader's own validator (config.ts) before anything is written, and the
 * file it goes into must be valid as it stands, since an invalid file starts no server at all.
 *
 * @module
 */
import { errorMessage, type PluginContext } from "../../core/mod.ts";
import {
  didYouMean,
  escapeControlCharacters,
  looksSecret,
  writeErr,
  writeOut,
} from "../../kit/mod.ts";
import { parseMcpConfig } from "./config.ts";
import { readProjectMcpConfig, readUserMcpConfig, type Scope, SCOPES } from "./config_files.ts";
import {
  type EntryFile,
  entryFile,
  NameTakenError,
  serverNamesIn,
  writeEntry,
} from "./entry_files.ts";
import { envReference } from "./server_env.ts";
import { flagWording, remoteEntry, type RemoteFlags } from "./remote_flags.ts";

/** What `hel mcp add` was given. */
export interface AddRequest {
  name: string;
  scope: Scope;
  /** `NAME=VALUE` words of `--env`, as typed. */
  env: string[];
  /** `--timeout` as typed. */
  timeout?: string;
  /** The server's program and its arguments: the words after `--`. */
  commandLine: string[];
  replace: boolean;
  /** `--transport http|sse URL`: a remote server at `url`, with these flags. */
  remote?: RemoteFlags & { url: string };
}

const print = (text: string) => writeOut(escapeControlCharacters(text) + "\n");
const fail = (text: string) => writeErr(`hel mcp: ${escapeControlCharacters(text)}\n`);

/** Adds the server; returns the exit code (2 for bad input, 1 when it cannot be done). */
export async function addServer(request: AddRequest, context: PluginContext): Promise<number> {
  const { name } = request;
  const [program, ...args] = request.commandLine;
  if (request.remote) return await addEntry(request, remoteAddEntry(request), {}, context);
  if (program === undefined) {
    fail(
      `the server's command is missing: write it after --, e.g. ` +
        `hel mcp add ${name} -- npx -y @modelcontextprotocol/server-everything`,
    );
    return 2;
  }
  const env: Record<string, string> = {};
  for (const word of request.env) {
    const cut = word.indexOf("=");
    if (cut <= 0) {
      fail(`--env ${word}: write NAME=VALUE, e.g. --env LOG_LEVEL=warn or --env 'TOKEN=\${TOKEN}'`);
      return 2;
    }
    const variable = word.slice(0, cut);
    if (variable in env) {
      fail(`--env ${variable} is given twice; keep one`);
      return 2;
    }
    env[variable] = word.slice(cut + 1);
  }
  const entry: Record<string, unknown> = { command: program };
  if (args.length > 0) entry.args = args;
  if (Object.keys(env).length > 0) entry.env = env;
  return await addEntry(request, entry, env, context);
}

/** A remote server's entry from `add --transport http NAME URL ...`, or what is wrong. */
function remoteAddEntry(request: AddRequest): Record<string, unknown> | string {
  if (request.env.length > 0) {
    return "--env is for servers hel starts; a remote server is sent headers instead: " +
      "--header-env HEADER=VARIABLE or --bearer-token-env VARIABLE";
  }
  return remoteEntry(request.remote!.url, request.remote!);
}

/** Validates the entry and writes it; the exit code. */
async function addEntry(
  request: AddRequest,
  made: Record<string, unknown> | string,
  env: Record<string, string>,
  context: PluginContext,
): Promise<number> {
  const { name, scope } = request;
  if (typeof made === "string") {
    fail(`MCP server ${name} was not added: ${made}`);
    return 2;
  }
  const entry = made;
  if (request.timeout !== undefined) entry.timeout = numberOrText(request.timeout);

  const problems = entryProblems(name, entry, scope === "project");
  if (problems.length > 0) {
    fail(`MCP server ${name} was not added:\n  ${problems.join("\n  ")}`);
    return 2;
  }
  const file = entryFile(scope, context);
  const current = scope === "user"
    ? await readUserMcpConfig(context.helHome)
    : await readProjectMcpConfig(context.project);
  if (current.kind === "unusable") {
    fail(`${current.message}; nothing was written`);
    return 1;
  }
  if (current.kind === "invalid") {
    fail(
      `${file.shown} has mistakes, and a file with any mistake starts no server, so nothing ` +
        `was written; fix them first:\n  ${current.problems.join("\n  ")}`,
    );
    return 1;
  }
  try {
    await writeEntry(file, name, entry, { replace: request.replace });
  } catch (error) {
    if (error instanceof NameTakenError) {
      fail(
        `${file.shown} already has an MCP server ${name}; add --replace to replace its entry, ` +
          `or pick another name (hel mcp get ${name} shows it)`,
      );
      return 1;
    }
    fail(`could not write ${file.shown}: ${errorMessage(error)}`);
    return 1;
  }
  const replaced = current.kind === "ok" && current.servers.some((s) => s.name === name);
  print(`${replaced ? "Replaced" : "Added"} MCP server ${name} in ${file.shown}.`);
  for (const line of afterwards(file, name, env)) print(line);
  return 0;
}

/** Removes the server from the file `scope` names, or from the one file that has it. */
export async function removeServer(
  name: string,
  scope: Scope | undefined,
  context: PluginContext,
): Promise<number> {
  const files = (scope ? [scope] : SCOPES).map((s) => entryFile(s, context));
  const holding: EntryFile[] = [];
  const known: string[] = [];
  for (const file of files) {
    const found = await serverNamesIn(file);
    if (found.kind === "unreadable") {
      fail(`${found.message}; nothing was removed`);
      return 1;
    }
    if (found.kind === "names") {
      known.push(...found.names);
      if (found.names.includes(name)) holding.push(file);
    }
  }
  if (holding.length === 0) {
    fail(
      `no MCP server ${name} in ${files.map((f) => f.shown).join(" or ")}` +
        `${didYouMean(name, known)}; hel mcp list shows the servers`,
    );
    return 1;
  }
  if (holding.length > 1) {
    fail(
      `MCP server ${name} is in both ${holding.map((f) => f.shown).join(" and ")}; say which ` +
        `with --scope user or --scope project`,
    );
    return 1;
  }
  const file = holding[0]!;
  try {
    await writeEntry(file, name, undefined, { replace: true });
  } catch (error) {
    fail(`could not write ${file.shown}: ${errorMessage(error)}`);
    return 1;
  }
  print(`Removed MCP server ${name} from ${file.shown}.`);
  if (file.scope === "project") print(trustAgain());
  return 0;
}

/**
 * The loader's verdict on one entry, worded for the command line: the field the flag filled
 * is named by the flag (`--timeout`, `--env NAME`), not by its place in a file.
 */
export function entryProblems(
  name: string,
  entry: Record<string, unknown>,
  project = false,
): string[] {
  const text = JSON.stringify({ servers: { [name]: entry } });
  const parsed = parseMcpConfig(new TextEncoder().encode(text), "entry", project);
  if (parsed.ok) return [];
  const field = `servers.${JSON.stringify(name)}`;
  return parsed.problems.map((problem) =>
    flagWording(problem.replace(/^entry:\d+:\d+: /, ""), field)
      .replaceAll(`${field}.timeout`, "--timeout")
      .replaceAll(`${field}.env.`, "--env ")
      .replaceAll(`${field}.env`, "--env")
      .replaceAll(`${field}.command`, "the command after --")
  );
}

/** What the person should know once the entry is written. */
function afterwards(
  file: EntryFile,
  name: string,
  env: Record<string, string>,
): string[] {
  if (file.scope === "user") {
    return [
      `It is your own file: every project's runs start ${name}, without a trust question ` +
      `(a project's .hel/mcp.json entry of the same name wins). Check it with: hel mcp list`,
    ];
  }
  const lines = [trustAgain()];
  // The project's file is usually committed: a literal credential would be shared with it.
  for (const [variable, value] of Object.entries(env)) {
    if (looksSecret(variable) && !envReference(value)) {
      lines.push(
        `Note: the value of ${variable} is now written in ${file.shown}, which is part of the ` +
          `project; to pass your own variable instead, use --env '${variable}=\${${variable}}' ` +
          `(add --replace), or --scope user for your own file`,
      );
    }
  }
  return lines;
}

function trustAgain(): string {
  return `.hel/mcp.json changed, so the next run asks you to trust it again (as for any change); ` +
    `review it now with: hel trust mcp`;
}

/** A number when the text is one, so the validator sees what JSON would hold. */
function numberOrText(text: string): number | string {
  return /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(text) ? Number(text) : text;
}
