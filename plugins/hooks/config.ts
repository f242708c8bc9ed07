/**
 * `.hel/hooks.json`: parsing (JSONC) and validation. A file with any mistake is rejected as a
 * whole, with every mistake reported at once (as for `.hel/mcp.json`), each naming the file,
 * line, column, field and the fix. Unknown fields are mistakes, so a typo never silently
 * disables a guard.
 *
 * @module
 */
import type { Node } from "jsonc-parser";
import { errorMessage, MAX_TIMER_SECONDS, type TrustedConfig } from "../../core/mod.ts";
import { didYouMean, jsoncProperties, parseJsoncConfig } from "../../kit/mod.ts";

/** `.hel/hooks.json` runs only once trusted: `hel trust hooks`, or the review at start. */
export const HOOKS_TRUST: TrustedConfig = { kind: "hooks", subject: "hook configuration" };

/** The run record's trace of the hooks (`raw/hooks.jsonl`). */
export const HOOKS_TRACE = "hooks";

/** The events a hook can run on. */
export type HookEvent = "PreToolUse" | "PostToolUse";

/** The hook events, in the order they happen around a call. */
export const HOOK_EVENTS: readonly HookEvent[] = ["PreToolUse", "PostToolUse"];

/** At most this many handlers in one file (both events together). */
export const MAX_HANDLERS = 128;

/** Seconds a handler may run unless its `timeout` says otherwise. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

/** One command to run for an event, in file order. */
export interface HookHandler {
  event: HookEvent;
  /** 0-based position among the handlers of its event, in file order. */
  index: number;
  /** The matcher as written; undefined, "" and "*" match every tool. */
  matcher: string | undefined;
  /** Tests a tool name; undefined matches every tool. */
  pattern: RegExp | undefined;
  command: string;
  timeoutSeconds: number;
  /** What a failed run of this handler (crash, timeout, bad output) does to the call. */
  onError: "continue" | "block";
  /**
   * False for `"sandbox": false`: the command runs outside the sandbox, with hel's rights
   * (its PATH without project folders, its project scripts pinned). True by default.
   */
  sandbox: boolean;
}

/** A valid configuration: the handlers of each event in file order. */
export type HooksConfig = Record<HookEvent, HookHandler[]>;

/** The parse result: the config, or every mistake found, each naming its place and fix. */
export type HooksConfigResult =
  | { ok: true; config: HooksConfig }
  | { ok: false; problems: string[] };

/** At most this many mistakes are listed; a line then says how many more there are. */
const MAX_PROBLEMS = 20;

/** True when the handler runs for a call of `toolName`. */
export function matches(handler: HookHandler, toolName: string): boolean {
  return handler.pattern === undefined || handler.pattern.test(toolName);
}

/** Notes a mistake at `node`; validation goes on, so the file's mistakes are reported at once. */
type Report = (node: Node, message: string) => void;

/** Parses and validates the bytes of `path`. */
export function parseHooksConfig(bytes: Uint8Array, path: string): HooksConfigResult {
  const parsed = parseJsoncConfig(bytes, path, {
    emptyFix: 'write {"hooks": {"PreToolUse": [...]}} or delete it',
    // Only the first syntax error: the ones after it are mostly its echoes.
    syntaxFix: "fix the JSON (comments and trailing commas are allowed)",
  });
  if (!parsed.ok) return parsed;
  const problems: string[] = [];
  const config = validate(
    parsed.root,
    (node, message) => problems.push(`${parsed.at(node.offset)}: ${message}`),
  );
  if (problems.length === 0) return { ok: true, config };
  const more = problems.length - MAX_PROBLEMS;
  return {
    ok: false,
    problems: more > 0
      ? [...problems.slice(0, MAX_PROBLEMS), `... and ${more} more mistakes in ${path}`]
      : problems,
  };
}

function validate(root: Node, report: Report): HooksConfig {
  const config: HooksConfig = { PreToolUse: [], PostToolUse: [] };
  const top = fields(root, "the top level", ["description", "hooks"], report, {
    example: '{"hooks": {"PreToolUse": [...]}}',
  });
  if (!top) return config;
  const description = top.get("description");
  if (description && description.type !== "string") {
    report(description, 'description must be a string; write "description": "..."');
  }
  const hooksNode = top.get("hooks");
  if (!hooksNode) {
    report(root, 'missing field "hooks"; write {"hooks": {"PreToolUse": [...]}}');
    return config;
  }
  const events = fields(hooksNode, "hooks", HOOK_EVENTS, report, {
    unknown: (name) => `unsupported hook event "${name}" in hooks; use PreToolUse or PostToolUse`,
    example: '{"PreToolUse": [...], "PostToolUse": [...]}',
  });
  let total = 0;
  for (const event of HOOK_EVENTS) {
    const groups = events?.get(event);
    if (!groups) continue;
    const example = '[{"matcher": "^bash$", "hooks": [...]}]';
    array(groups, `hooks.${event}`, example, report).forEach((groupNode, g) => {
      const where = `hooks.${event}[${g}]`;
      const group = fields(groupNode, where, ["matcher", "hooks"], report, {
        example: '{"matcher": "^bash$", "hooks": [{"type": "command", "command": "..."}]}',
      });
      if (!group) return;
      const matched = parseMatcher(group.get("matcher"), where, report);
      const list = group.get("hooks");
      if (!list) {
        report(
          groupNode,
          `missing field "hooks" in ${where}; add "hooks": [{"type": "command", "command": "..."}]`,
        );
        return;
      }
      const handlers = array(
        list,
        `${where}.hooks`,
        '[{"type": "command", "command": "..."}]',
        report,
      );
      handlers.forEach((handlerNode, h) => {
        if (++total === MAX_HANDLERS + 1) {
          report(
            handlerNode,
            `more than ${MAX_HANDLERS} hook handlers; combine commands into fewer handlers`,
          );
        }
        const handler = parseHandler(handlerNode, `${where}.hooks[${h}]`, report);
        if (!handler || !matched) return;
        config[event].push({ event, index: config[event].length, ...matched, ...handler });
      });
    });
  }
  return config;
}

/** The matcher and its pattern; undefined (reported) when it is not a usable one. */
function parseMatcher(node: Node | undefined, where: string, report: Report) {
  if (!node) return { matcher: undefined, pattern: undefined };
  if (node.type !== "string") {
    report(
      node,
      `${where}.matcher must be a string (a regular expression over tool names), ` +
        'e.g. "matcher": "^search_replace$"',
    );
    return undefined;
  }
  const matcher = node.value as string;
  if (matcher === "" || matcher === "*") return { matcher, pattern: undefined };
  try {
    return { matcher, pattern: new RegExp(matcher, "u") };
  } catch (error) {
    report(
      node,
      `${where}.matcher is not a valid regular expression (${errorMessage(error)}); ` +
        'write one such as "^search_replace$", or leave it out to match every tool',
    );
    return undefined;
  }
}

/** A handler's settings; undefined when any field is wrong (each one reported). */
function parseHandler(node: Node, where: string, report: Report) {
  const handler = fields(
    node,
    where,
    ["type", "command", "timeout", "on_error", "sandbox"],
    report,
    { example: '{"type": "command", "command": "./check.sh", "timeout": 30}' },
  );
  if (!handler) return undefined;
  let bad = false;
  const wrong = (at: Node, message: string) => {
    bad = true;
    report(at, message);
  };
  const type = handler.get("type");
  if (!type || type.type !== "string" || type.value !== "command") {
    wrong(type ?? node, `${where}.type must be "command"; write "type": "command"`);
  }
  const command = handler.get("command");
  if (!command || command.type !== "string" || (command.value as string).trim() === "") {
    wrong(
      command ?? node,
      `${where}.command must be a non-blank string (run by /bin/sh -c in the project, inside ` +
        'the sandbox unless the handler says "sandbox": false), ' +
        'e.g. "command": "./scripts/check.sh"',
    );
  }
  const timeout = handler.get("timeout");
  if (
    timeout && (
      timeout.type !== "number" || !Number.isInteger(timeout.value) || timeout.value <= 0 ||
      timeout.value > MAX_TIMER_SECONDS
    )
  ) {
    wrong(
      timeout,
      `${where}.timeout must be a positive whole number of seconds, at most ` +
        `${MAX_TIMER_SECONDS} (about 24 days), e.g. "timeout": 30 (default ` +
        `${DEFAULT_TIMEOUT_SECONDS})`,
    );
  }
  const onError = handler.get("on_error");
  if (onError && (onError.type !== "string" || !["continue", "block"].includes(onError.value))) {
    wrong(
      onError,
      `${where}.on_error must be "continue" (the default: report the failure, run the call) ` +
        'or "block" (a failed hook stops the call)',
    );
  }
  const sandbox = handler.get("sandbox");
  if (sandbox && sandbox.type !== "boolean") {
    wrong(
      sandbox,
      `${where}.sandbox must be true (the default: the command runs in the sandbox, like bash) ` +
        'or false (it runs outside, with your rights); write "sandbox": false without quotes',
    );
  }
  if (bad) return undefined;
  return {
    command: command!.value as string,
    timeoutSeconds: (timeout?.value as number | undefined) ?? DEFAULT_TIMEOUT_SECONDS,
    onError: (onError?.value ?? "continue") as "continue" | "block",
    sandbox: sandbox?.value !== false,
  };
}

interface FieldsOptions {
  /** The message for an unexpected field name. */
  unknown?: (name: string) => string;
  /** A short example of the expected object, for the message when it is not an object. */
  example: string;
}

/**
 * The fields of an object node by name; unknown and repeated names are reported and left out.
 * Undefined (reported) when the node is not an object.
 */
function fields(
  node: Node,
  where: string,
  allowed: readonly string[],
  report: Report,
  options: FieldsOptions,
): Map<string, Node> | undefined {
  if (node.type !== "object") {
    report(node, `${where} must be an object, e.g. ${options.example}`);
    return undefined;
  }
  const found = new Map<string, Node>();
  for (const { name, key, value } of jsoncProperties(node)) {
    if (!allowed.includes(name)) {
      const hint = didYouMean(name, allowed);
      report(
        key,
        options.unknown?.(name) ??
          `unknown field "${name}" in ${where}${hint}; allowed fields: ${allowed.join(", ")}`,
      );
    } else if (found.has(name)) {
      report(key, `field "${name}" appears twice in ${where}; keep one`);
    } else found.set(name, value);
  }
  return found;
}

/** The items of a list node; none (reported) when it is not a list. */
function array(node: Node, where: string, example: string, report: Report): Node[] {
  if (node.type === "array") return node.children ?? [];
  report(node, `${where} must be a list, e.g. ${example}`);
  return [];
}
