/**
 * The command line: hel's own flags, the flags and subcommands plugins add, and the default
 * action that starts a run.
 *
 * @module
 */
import { Command, InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { CommanderError } from "commander";
import type { LoadedPlugin } from "../agent/plugin_loader.ts";
import type { PluginOption } from "../core/plugin.ts";
import { ACCESS_LEVELS } from "../core/permissions.ts";
import { MAX_TIMER_SECONDS } from "../core/timer_limit.ts";
import { DEFAULT_CONTEXT_FILES } from "../agent/context_files.ts";
import { writeErr, writeOut } from "../kit/output.ts";
import { OUTPUT_FORMATS } from "./output/format.ts";
import { MODEL_INPUTS, type ModelInput } from "../agent/model/media_parts.ts";

const HELP_EXAMPLES = `
Examples:
  $ hel "explain what main.ts does"                one instruction, answer on stdout
  $ hel --access auto --tools read_file,grep "…"   pick tools, run without questions
  $ hel                                            interactive chat on a terminal
  $ hel -c "and now the tests"                     continue the most recent session
  $ hel --base-url http://localhost:8080/v1 --model m "…"   any OpenAI-compatible server
  $ hel --output-format json "…" | jq -r .result   the answer and run facts as JSON
  $ hel plugins list                               what this build is made of
  $ hel config list                                settings and where each comes from

Model API key: HEL_API_KEY or DEEPSEEK_API_KEY (or the variable the apiKeyEnv setting names);
none for a server on this machine. Settings: $HEL_HOME/settings.jsonc, .hel/settings.jsonc.`;

/** A positive whole number, for commander. */
export function positiveInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  }
  return number;
}

/**
 * An http(s) URL, for `--base-url` and `HEL_BASE_URL`: a typo is a usage error at once,
 * instead of five retried "Invalid URL" requests and exit 1.
 */
export function httpUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch { /* reported below */ }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new InvalidArgumentError(
      "expected an http:// or https:// URL, e.g. https://api.deepseek.com or " +
        "http://localhost:8080/v1",
    );
  }
  return value;
}

function timeoutSeconds(value: string): number {
  const seconds = positiveInt(value);
  if (seconds > MAX_TIMER_SECONDS) {
    throw new InvalidArgumentError(
      `at most ${MAX_TIMER_SECONDS} seconds (about 24 days), the longest limit hel can keep`,
    );
  }
  return seconds;
}

/** `text,image`: what the model takes, for `--model-input`. */
function modelInputs(value: string): ModelInput[] {
  const kinds = value.split(",").map((kind) => kind.trim()).filter((kind) => kind !== "");
  const unknown = kinds.filter((kind) => !(MODEL_INPUTS as readonly string[]).includes(kind));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `expected a comma-separated list of ${MODEL_INPUTS.join(", ")}, e.g. text,image` +
        (unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""),
    );
  }
  return [...new Set(kinds as ModelInput[])];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Each `--context-file` adds a name; the first one replaces the default list. */
function contextFiles(value: string, previous: readonly string[] | false): readonly string[] {
  return previous === DEFAULT_CONTEXT_FILES || previous === false ? [value] : [...previous, value];
}

/** The code of the CommanderError thrown for `-v`, `-V` or `--version`. */
export const VERSION_REQUESTED = "hel.version";

/** Builds the root command with every core and plugin flag; subcommands are added later. */
export function createProgram(plugins: readonly LoadedPlugin[]) {
  const program = new Command()
    .name("hel")
    .description("hel — a coding-agent harness: a model, tools, and your project")
    // -v as most CLIs have it; -V, commander's default, still works (hidden).
    .addOption(new Option("-v, --version", "output the version number"))
    .addOption(new Option("-V", "output the version number").hideHelp())
    .argument("[instruction...]", "run one instruction and print the final answer")
    .option("-i, --instruction <text>", "run one instruction (same as the positional words)")
    .addOption(
      new Option("--model <id>", "model id").env("HEL_MODEL").default("deepseek-flash"),
    )
    .addOption(
      new Option("--base-url <url>", "OpenAI-compatible API base URL")
        .env("HEL_BASE_URL").default("https://api.deepseek.com").argParser(httpUrl),
    )
    .addOption(
      new Option("--access <level>", "what tools may do without asking")
        .choices(ACCESS_LEVELS).default("confirm" as const),
    )
    .option("--approval-input <file>", "answer permission questions from a JSON list of booleans")
    .option("--no-env", "leave the Environment block out of the system message")
    .addOption(
      new Option(
        "--context-file <name>",
        "project file added to the system message (repeatable; replaces the default list)",
      ).argParser(contextFiles).default(DEFAULT_CONTEXT_FILES, DEFAULT_CONTEXT_FILES.join(", ")),
    )
    .option("--no-context-file", "add no context file")
    .option("--max-turns <n>", "model requests per user turn", positiveInt, 50)
    .addOption(
      // A described default: commander would print the empty list as "(default: [])".
      new Option("--without <plugin>", "run without a plugin (repeatable)")
        .argParser(collect).default([] as string[], "none"),
    )
    .option("--no-stream", "ask for whole responses instead of streaming")
    .option(
      "--timeout <seconds>",
      "bound on one model request (streamed: between chunks)",
      timeoutSeconds,
      300,
    )
    .option("--max-output-tokens <n>", "output token limit per response", positiveInt, 8192)
    .addOption(
      new Option(
        "--model-input <kinds>",
        "what the model takes: text, image, audio (images and audio from tool results are " +
          "sent to it only when listed; else a marker with their type and size)",
      ).argParser(modelInputs).default(["text"] as ModelInput[], "text"),
    )
    .option("-c, --continue", "continue this project's most recent session")
    .option(
      "--resume [id]",
      "continue a saved session: its id or first 8 characters; no id: choose in a list on a " +
        "terminal (elsewhere: the most recent)",
    )
    .option(
      "--fork-session",
      "with --continue or --resume: continue in a new session, leaving the old as it was",
    )
    .option("--context-window <tokens>", "model context window (default 1000000)", positiveInt)
    .option("--compact-at <tokens>", "compact above this size (with --keep-recent)", positiveInt)
    .option("--keep-recent <tokens>", "recent tokens kept verbatim when compacting", positiveInt)
    .option("--no-compaction", "never compact the conversation (also keeps large results whole)")
    .option("--record <file>", "write a run record (record.json) and raw logs (raw/) beside it")
    .option(
      "--raw-output",
      "print the one-shot answer's bytes as sent (default: control characters and escape " +
        "sequences shown as \\u001b..., as everywhere hel writes to the terminal)",
    )
    .addOption(
      new Option(
        "--output-format <format>",
        "one-shot output on stdout: text (the answer), json (one result object at the end), " +
          "stream-json (one JSON event per line as the run goes)",
      ).choices(OUTPUT_FORMATS).default("text" as const),
    )
    .addHelpText("after", HELP_EXAMPLES)
    .showHelpAfterError("(run hel --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut,
      writeErr: (text) => writeErr(text.replace(/^error: /, "hel: ")),
    });
  // The report reads git or the build stamp, which takes a promise: runCommandLine prints it.
  for (const name of ["version", "V"]) {
    program.on(`option:${name}`, () => {
      throw new CommanderError(0, VERSION_REQUESTED, "");
    });
  }
  for (const [spec, owners] of optionOwners(plugins)) {
    const option = new Option(spec.flags, `${spec.description} [${owners.join(", ")}]`);
    if (spec.choices) option.choices(spec.choices);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.repeatable) option.argParser(collect).default([] as string[], "none");
    if (spec.hidden) option.hideHelp();
    program.addOption(option);
  }
  return program;
}

/**
 * Each plugin flag with the plugins that declare it, in order. Plugins that share a flag (the
 * kit's sandbox flags) list the same option object, so it is added once; two different objects
 * for one flag are a plugin mistake that commander reports.
 */
function optionOwners(plugins: readonly LoadedPlugin[]): Map<PluginOption, string[]> {
  const owners = new Map<PluginOption, string[]>();
  for (const { plugin } of plugins) {
    for (const spec of plugin.options ?? []) {
      const names = owners.get(spec) ?? [];
      if (!names.includes(plugin.name)) names.push(plugin.name);
      owners.set(spec, names);
    }
  }
  return owners;
}
