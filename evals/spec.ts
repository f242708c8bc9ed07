/**
 * Lab and task files: `evals/labs/<lab>.yaml` (model, budget, conditions, repetitions, rubric)
 * and `evals/tasks/<id>/task.yaml` (instruction, fixture, checks). Both are validated on load;
 * an error names the file, the field and what to write instead.
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";

const NAME = /^[a-z0-9][a-z0-9-]*$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** Settings of a hel condition; each becomes a hel flag (see hel_driver.ts). */
const HelSettings = z.object({
  /** Plugins to leave out (`--without`). */
  without: z.array(z.string().regex(NAME)).optional(),
  tools: z.array(z.string().min(1)).min(1).optional(),
  access: z.enum(["read-only", "confirm", "auto"]).optional(),
  env: z.boolean().optional(),
  context_file: z.union([z.string().min(1), z.literal(false)]).optional(),
  compaction: z.literal(false).optional(),
  /** Every MCP definition in the first request (`--mcp-eager`). */
  mcp_eager: z.literal(true).optional(),
  /** How MCP tools are offered (`--mcp-catalogue`): names listed, or found by search. */
  mcp_catalogue: z.enum(["auto", "list", "search"]).optional(),
  /** A folder of the task, `overlays/<name>/`, copied over the fixture (see overlay.ts). */
  overlay: z.string().regex(NAME).optional(),
  /** The reviewed SHA-256 of the task's `.hel/mcp.json`; trust is recorded for exactly it. */
  mcp_sha256: z.string().regex(SHA256, "expected 64 lowercase hexadecimal characters").optional(),
}).strict();

const Condition = z.object({
  name: z.string().regex(
    /^(baseline|variant(-[a-z0-9-]+)?)$/,
    'use "baseline", "variant" or "variant-<suffix>"',
  ),
  description: z.string().optional(),
  settings: HelSettings.default({}),
}).strict();

const Lab = z.object({
  lab: z.string().regex(/^h\d\d(-[a-z0-9]+)*$/, 'a lab id looks like "h10" or "h10-scale"'),
  title: z.string().min(1),
  description: z.string().optional(),
  revision: z.number().int().min(1).default(1),
  model: z.object({
    provider: z.string().min(1),
    id: z.string().min(1),
    base_url: z.string().url(),
    params: z.record(z.string(), z.unknown()).default({}).refine(
      (params) => Object.keys(params).length === 0,
      "hel has no flag for extra model parameters yet; leave params empty ({})",
    ),
  }).strict(),
  budget: z.object({
    max_turns: z.number().int().positive(),
    timeout_seconds: z.number().int().positive(),
    max_output_tokens: z.number().int().positive(),
  }).strict(),
  conditions: z.array(Condition).min(1).refine(
    (list) => new Set(list.map((c) => c.name)).size === list.length,
    "condition names must be unique",
  ),
  tasks: z.array(z.string().regex(NAME)).min(1),
  repetitions: z.number().int().min(1).max(99),
  rubric: z.record(z.string(), z.string()).default({}),
}).strict();

const FileExactMatch = z.object({
  id: z.string().regex(NAME),
  type: z.literal("file_exact_match"),
  path: z.string().min(1),
  expected_file: z.string().min(1),
}).strict();

const ToolCalls = z.object({
  id: z.string().regex(NAME),
  type: z.literal("tool_calls"),
  category: z.enum(["read", "search", "edit", "exec", "other"]),
  count: z.number().int().min(0),
  /** Count only successful (true) or only failed (false) calls; all calls when absent. */
  ok: z.boolean().optional(),
}).strict();

const McpUsage = z.object({
  id: z.string().regex(NAME),
  type: z.literal("mcp_usage"),
  server: z.string().min(1),
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** Text the tool's answer must contain (the value only the server knows). */
  expect: z.string().min(1),
  /** The tool that must then change the file. */
  edit_tool: z.string().min(1),
  /** The server's message log, relative to the workspace. */
  server_log: z.string().min(1),
}).strict();

const Check = z.discriminatedUnion("type", [FileExactMatch, ToolCalls, McpUsage]);

const Task = z.object({
  id: z.string().regex(NAME),
  description: z.string().optional(),
  instruction: z.string().trim().min(1),
  fixture: z.string().min(1).default("fixture"),
  checks: z.array(Check).min(1).refine(
    (list) => new Set(list.map((c) => c.id)).size === list.length,
    "check ids must be unique",
  ),
}).strict();

/** A validated lab. */
export type Lab = z.infer<typeof Lab>;
/** One condition of a lab. */
export type Condition = z.infer<typeof Condition>;
/** The hel settings of a condition. */
export type HelSettings = z.infer<typeof HelSettings>;
/** A validated task, with the folders it lives in. */
export type Task = z.infer<typeof Task> & { dir: string; fixtureDir: string };
/** One check of a task. */
export type CheckSpec = z.infer<typeof Check>;

/** A lab or task file that cannot be used; the message names file, field and fix. */
export class SpecError extends Error {}

function describe(error: z.ZodError, file: string): string {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
    const fix = issue.code === "unrecognized_keys" ? " (misspelt? remove it or fix the name)" : "";
    return `  ${field}: ${issue.message}${fix}`;
  });
  return `${file} is not valid:\n${lines.join("\n")}`;
}

async function readYaml(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new SpecError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseYaml(text);
  } catch (error) {
    throw new SpecError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
}

/** Lab ids available in `<evalsDir>/labs/`. */
export async function labIds(evalsDir: string): Promise<string[]> {
  const ids: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${evalsDir}/labs`)) {
      if (entry.isFile && entry.name.endsWith(".yaml")) ids.push(entry.name.slice(0, -5));
    }
  } catch { /* no labs folder: no labs */ }
  return ids.sort();
}

/** Loads and validates `<evalsDir>/labs/<id>.yaml`. */
export async function loadLab(evalsDir: string, id: string): Promise<Lab> {
  const file = `${evalsDir}/labs/${id}.yaml`;
  try {
    await Deno.stat(file);
  } catch {
    const known = await labIds(evalsDir);
    throw new SpecError(
      `no lab named "${id}" (${file} does not exist); labs: ${known.join(", ") || "none"}`,
    );
  }
  const parsed = Lab.safeParse(await readYaml(file));
  if (!parsed.success) throw new SpecError(describe(parsed.error, file));
  if (parsed.data.lab !== id) {
    throw new SpecError(`${file} is not valid:\n  lab: must be "${id}", the file's name`);
  }
  return parsed.data;
}

/** The experiment id of a lab: `<lab>`, or `<lab>-r<N>` from revision 2 on. */
export function experimentId(lab: Lab): string {
  return lab.revision >= 2 ? `${lab.lab}-r${lab.revision}` : lab.lab;
}

/** Loads and validates `<evalsDir>/tasks/<id>/task.yaml`; fixture and expected files must exist. */
export async function loadTask(evalsDir: string, id: string): Promise<Task> {
  const dir = `${evalsDir}/tasks/${id}`;
  const file = `${dir}/task.yaml`;
  const parsed = Task.safeParse(await readYaml(file));
  if (!parsed.success) throw new SpecError(describe(parsed.error, file));
  const task = parsed.data;
  if (task.id !== id) {
    throw new SpecError(`${file} is not valid:\n  id: must be "${id}", the task folder's name`);
  }
  const inside = (field: string, path: string) => {
    if (path.startsWith("/") || path.split("/").includes("..")) {
      throw new SpecError(
        `${file} is not valid:\n  ${field}: "${path}" must be a relative path inside the task`,
      );
    }
  };
  inside("fixture", task.fixture);
  const fixtureDir = `${dir}/${task.fixture}`;
  if (!(await isDirectory(fixtureDir))) {
    throw new SpecError(`${file} is not valid:\n  fixture: ${fixtureDir} is not a folder`);
  }
  for (const [index, check] of task.checks.entries()) {
    if (check.type === "file_exact_match") {
      inside(`checks.${index}.path`, check.path);
      inside(`checks.${index}.expected_file`, check.expected_file);
      if (!(await isFile(`${dir}/${check.expected_file}`))) {
        throw new SpecError(
          `${file} is not valid:\n  checks.${index}.expected_file: ${dir}/${check.expected_file} ` +
            "does not exist",
        );
      }
    } else if (check.type === "mcp_usage") {
      inside(`checks.${index}.server_log`, check.server_log);
    }
  }
  return { ...task, dir, fixtureDir };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
