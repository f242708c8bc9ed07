/**
 * One `deno compile` of hel for one platform. The binary is written into a staging folder,
 * checked, and only then moved to its final name: a failed or doubtful build leaves nothing
 * behind that could be mistaken for hel.
 *
 * @module
 */
import { sha256Hex } from "../kit/trust/file_store.ts";
import { missingRuntimeMessage, type RuntimeSource } from "./runtime.ts";
import { type BuildTarget, hasExecutableHeader } from "./targets.ts";
import type { BuildStamp } from "../cli/version.ts";

/**
 * What hel may do at run time, fixed into the binary. hel runs commands and MCP servers the
 * user configures, reads and edits project files, talks to the model API and reads its
 * environment and the OS release for the system message. FFI is for one libc call, `prctl`,
 * that keeps hel's environment (the API key) unreadable to the programs it starts.
 */
const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
];

/** Everything one compile needs. */
export interface CompileRequest {
  /** The repository root (where deno.json and main.ts live). */
  root: string;
  /** Plugin modules to embed (absolute paths). */
  includes: string[];
  target: BuildTarget;
  host: BuildTarget | undefined;
  runtime: RuntimeSource;
  /** The final path of the artefact. */
  output: string;
  /** The version `hel --version` must report (deno.json `version`). */
  version: string;
  /** The stamp file embedded for `hel --version` (build/stamp.ts); its commit is checked. */
  stamp: { path: string; stamp: BuildStamp };
}

/** A written, checked artefact. */
export interface Artefact {
  target: BuildTarget;
  path: string;
  size: number;
  sha256: string;
  /** How the artefact was checked. */
  check: string;
}

/** A build step that failed, with a message for the user. */
class BuildError extends Error {
  override name = "BuildError";
}

/** SHA-256 of a file, as lowercase hex. */
async function sha256File(path: string): Promise<string> {
  return sha256Hex(await Deno.readFile(path));
}

/** The error part of deno's output (from `error:` up to its backtrace), indented. */
function denoError(text: string, lines = 8): string {
  const start = text.search(/^error:/m);
  const body = (start >= 0 ? text.slice(start) : text).split(/^Stack backtrace:/m)[0] ?? "";
  return body.trim().split("\n").filter((line) => line.trim() !== "").slice(0, lines)
    .map((line) => `    ${line}`).join("\n");
}

// deno-lint-ignore no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

/** The `deno compile` arguments that write hel for `request.target` to `output`. */
export function compileArgs(
  request: Pick<CompileRequest, "root" | "includes" | "target" | "stamp">,
  output: string,
): string[] {
  return [
    "compile",
    ...PERMISSIONS,
    "--target",
    request.target.triple,
    "--output",
    output,
    // cli/main.ts imports plugins by computed specifiers, which deno compile cannot follow.
    ...request.includes.flatMap((path) => ["--include", path]),
    "--include",
    request.stamp.path,
    `${request.root}/main.ts`,
  ];
}

async function runDenoCompile(request: CompileRequest, staged: string) {
  const env = Deno.env.toObject();
  // deno compile reads DENORT_BIN for every target; it must only apply to the host.
  if (request.runtime.kind !== "env") delete env.DENORT_BIN;
  else env.DENORT_BIN = request.runtime.path;
  const args = compileArgs(request, staged);
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: request.root,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    success: output.success,
    text: stripAnsi(decoder.decode(output.stdout) + decoder.decode(output.stderr)),
  };
}

/** Runs the host binary's `--version --json`; returns what it printed (stdout, else stderr). */
async function runVersion(path: string): Promise<{ ok: boolean; printed: string }> {
  try {
    const output = await new Deno.Command(path, {
      args: ["--version", "--json"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const decoder = new TextDecoder();
    const printed = (decoder.decode(output.stdout) || decoder.decode(output.stderr)).trim();
    return { ok: output.success, printed };
  } catch (error) {
    return { ok: false, printed: `(could not run it: ${(error as Error).message})` };
  }
}

/**
 * What is wrong with a binary's `--version --json` report, or undefined when it is the
 * compiled hel of this version carrying this build's stamp.
 */
export function versionProblem(
  printed: string,
  request: Pick<CompileRequest, "version" | "stamp">,
): string | undefined {
  let report;
  try {
    report = JSON.parse(printed);
  } catch {
    return "not a JSON report";
  }
  if (report?.version !== request.version) return `version is not ${request.version}`;
  if (report.compiled !== true) return "it does not report itself as compiled";
  if (report.commit !== request.stamp.stamp.commit) return "the build stamp is missing";
  return undefined;
}

async function check(request: CompileRequest, staged: string): Promise<string> {
  const file = await Deno.open(staged);
  const head = new Uint8Array(4);
  await file.read(head);
  file.close();
  if (!hasExecutableHeader(request.target, head)) {
    throw new BuildError(
      `the file deno compile wrote for ${request.target.name} is not a ` +
        `${request.target.format.toUpperCase()} executable; it was removed`,
    );
  }
  if (request.target !== request.host) return "executable header (cross-compiled, not run)";
  const { ok, printed } = await runVersion(staged);
  const problem = ok ? versionProblem(printed, request) : "it exited with an error";
  if (problem === undefined) {
    return `ran --version: ${request.version}, ${request.stamp.stamp.commit}`;
  }
  const hint = request.runtime.kind === "env"
    ? `; DENORT_BIN=${request.runtime.path} is probably not a denort runtime (the full deno ` +
      "CLI cannot be used; take denort from the Deno release archive denort-<target>.zip)"
    : "";
  throw new BuildError(
    `the compiled binary does not behave as hel: \`--version --json\` printed ` +
      `${JSON.stringify(printed.split("\n")[0]?.slice(0, 200) ?? "")}: ${problem}${hint}. ` +
      "It was removed",
  );
}

/** Compiles, checks and moves one artefact into place; throws BuildError with the reason. */
export async function compileTarget(request: CompileRequest): Promise<Artefact> {
  const outDir = request.output.slice(0, request.output.lastIndexOf("/")) || ".";
  await Deno.mkdir(outDir, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: outDir, prefix: ".staging-" });
  const staged = `${staging}/hel${request.target.suffix}`;
  try {
    const result = await runDenoCompile(request, staged);
    if (!result.success) {
      const runtime = request.runtime;
      if (runtime.kind === "download" && /denort|download|dns|connect/i.test(result.text)) {
        const message = missingRuntimeMessage(request.target, request.host, runtime.cachePath);
        throw new BuildError(`${message}\n  deno compile said:\n${denoError(result.text, 4)}`);
      }
      throw new BuildError(
        `deno compile failed for ${request.target.name}:\n${denoError(result.text)}`,
      );
    }
    const how = await check(request, staged);
    await Deno.rename(staged, request.output);
    const size = (await Deno.stat(request.output)).size;
    return {
      target: request.target,
      path: request.output,
      size,
      sha256: await sha256File(request.output),
      check: how,
    };
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}
