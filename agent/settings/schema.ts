/**
 * What a settings file (`$HEL_HOME/settings.jsonc`, `<project>/.hel/settings.jsonc`) may say,
 * as a zod schema. Every key is optional; an unknown one is a mistake (so a typo never silently
 * changes nothing). Each check's message is what the value must be, with an example, so an
 * error can name the file, the field and the fix.
 *
 * @module
 */
import { z } from "zod";
import { ACCESS_LEVELS } from "../../core/permissions.ts";
import { checkRule } from "../../core/permission_rule_text.ts";
import { MAX_TIMER_SECONDS } from "../../core/timer_limit.ts";
import { MODEL_INPUTS } from "../model/media_parts.ts";
import { VARIABLE_NAME } from "../../kit/sandbox/environment.ts";

/** The settings file's name, in `$HEL_HOME` and in the project's `.hel/`. */
export const SETTINGS_FILE = "settings.jsonc";

/** The output styles of one-shot runs (`--output-format`). */
export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;

/** A variable name as a shell writes it. */

/** True for an http:// or https:// URL. */
function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

const must = (text: string) => ({ error: text });

function positiveWhole(example: number, max?: number) {
  const text = max === undefined
    ? `a positive whole number, e.g. ${example}`
    : `a positive whole number of at most ${max}, e.g. ${example}`;
  const number = z.int(must(text)).positive(must(text));
  return max === undefined ? number : number.max(max, must(text));
}

/** A list of non-empty strings: `noun` names one, `example` shows a list. */
function words(noun: string, example: string) {
  const item = `a ${noun} (a non-empty string)`;
  return z.array(
    z.string(must(item)).trim().min(1, must(item)),
    must(`a list of ${noun}s, e.g. ${example}`),
  );
}

/** A list of permission rules, each well formed (core's grammar says what is wrong). */
function rules(example: string) {
  return z.array(
    z.string(must("a rule (a string)")).trim().superRefine((rule, context) => {
      const problem = checkRule(rule);
      if (problem) context.addIssue({ code: "custom", message: `a well-formed rule: ${problem}` });
    }),
    must(`a list of rules, e.g. ${example}`),
  );
}

const BROWSER_EXAMPLE = 'a command line that opens an address, e.g. "firefox --new-window"';

const onOff = z.enum(["on", "off"], must('"on" or "off"'));

/** One settings file's content. */
export const SETTINGS_SCHEMA = z.strictObject({
  model: z.string(must('a model id, e.g. "deepseek-flash"')).trim().min(1, must("a model id")),
  baseUrl: z.string(must('an http:// or https:// URL, e.g. "http://localhost:8080/v1"'))
    .refine(isHttpUrl, must('an http:// or https:// URL, e.g. "http://localhost:8080/v1"')),
  apiKeyEnv: z.string(must('the name of a variable holding the key, e.g. "OPENAI_API_KEY"'))
    .regex(VARIABLE_NAME, must('a variable name, e.g. "OPENAI_API_KEY"')),
  access: z.enum(
    ACCESS_LEVELS,
    must(`one of ${ACCESS_LEVELS.map((level) => `"${level}"`).join(", ")}`),
  ),
  tools: words("tool name", '["read_file", "grep"]')
    .min(1, must('a list of at least one tool name, e.g. ["read_file"]')),
  contextFiles: words("file name", '["AGENTS.md", "HEL.md"]'),
  maxTurns: positiveWhole(50),
  timeout: positiveWhole(300, MAX_TIMER_SECONDS),
  maxOutputTokens: positiveWhole(8192),
  stream: z.boolean(must("true or false (no quotes)")),
  compaction: z.strictObject({
    enabled: z.boolean(must("true or false (no quotes)")),
    contextWindow: positiveWhole(1_000_000),
    compactAt: positiveWhole(800_000),
    keepRecent: positiveWhole(20_000),
  }, must('an object, e.g. {"enabled": true}')).partial(),
  sandbox: z.strictObject({
    mode: onOff,
    network: onOff,
    read: z.array(
      z.string(must("a path")).refine(
        (path) => path === "~" || path.startsWith("~/") || path.startsWith("/"),
        must('an absolute path or one starting with ~/, e.g. "~/.cargo"'),
      ),
      must('a list of paths, e.g. ["~/.cargo"]'),
    ),
    env: z.array(
      z.string(must("a variable name")).regex(
        VARIABLE_NAME,
        must('a variable name, e.g. "NPM_TOKEN"'),
      ),
      must('a list of variable names, e.g. ["NPM_TOKEN"]'),
    ),
    allowGitWrites: z.boolean(must("true or false (no quotes)")),
    processes: positiveWhole(512),
  }, must('an object, e.g. {"mode": "on", "network": "off"}')).partial(),
  permissions: z.strictObject({
    allow: rules('["read_file", "bash(npm test:*)"]'),
    ask: rules('["write_file(src/**)"]'),
    deny: rules('["bash(rm:*)"]'),
  }, must('an object, e.g. {"deny": ["bash(rm:*)"]}')).partial(),
  outputFormat: z.enum(
    OUTPUT_FORMATS,
    must(`one of ${OUTPUT_FORMATS.map((f) => `"${f}"`).join(", ")}`),
  ),
  modelInput: z.array(
    z.enum(MODEL_INPUTS, must(`one of ${MODEL_INPUTS.map((k) => `"${k}"`).join(", ")}`)),
    must('a list of what the model takes, e.g. ["text", "image"]'),
  ),
  mcp: z.strictObject({
    browser: z.string(must(BROWSER_EXAMPLE)).trim().min(1, must(BROWSER_EXAMPLE)),
  }, must('an object, e.g. {"browser": "firefox --new-window"}')).partial(),
}, must('an object of settings, e.g. {"model": "deepseek-flash"}')).partial();

/** A settings file's content after validation. */
export type Settings = z.infer<typeof SETTINGS_SCHEMA>;

/** The groups of the schema (`compaction`, `sandbox`, `permissions`, `mcp`) and their keys. */
const GROUPS: Record<string, readonly string[]> = {
  compaction: Object.keys(SETTINGS_SCHEMA.shape.compaction.unwrap().shape),
  sandbox: Object.keys(SETTINGS_SCHEMA.shape.sandbox.unwrap().shape),
  permissions: Object.keys(SETTINGS_SCHEMA.shape.permissions.unwrap().shape),
  mcp: Object.keys(SETTINGS_SCHEMA.shape.mcp.unwrap().shape),
};

/**
 * Settings only the person's own file may set, with why: a project file is repository content,
 * and these name a program hel runs outside the sandbox (trust of the file's bytes is not
 * enough: the review shows settings, not what a command line would do).
 */
export const USER_ONLY_KEYS: Readonly<Record<string, string>> = {
  "mcp.browser": "it is the command hel runs, as you and outside the sandbox, to open MCP " +
    "login pages, and a repository must not choose what runs on your machine",
};

/** The names allowed in the object at `path` (the top level for `[]`); none for a value. */
export function keysAt(path: readonly (string | number)[]): readonly string[] {
  if (path.length === 0) return Object.keys(SETTINGS_SCHEMA.shape);
  if (path.length === 1) return GROUPS[String(path[0])] ?? [];
  return [];
}

/** Every leaf key, dotted (`model`, `compaction.keepRecent`), in schema order. */
export const LEAF_KEYS: readonly string[] = Object.keys(SETTINGS_SCHEMA.shape).flatMap((key) =>
  GROUPS[key] ? GROUPS[key].map((inner) => `${key}.${inner}`) : [key]
);

/** A path as settings are named in messages: `compaction.keepRecent`, `tools[2]`. */
export function dottedKey(path: readonly PropertyKey[]): string {
  return path.map((part, index) =>
    typeof part === "number" ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`
  ).join("");
}
