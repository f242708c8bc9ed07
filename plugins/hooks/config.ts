/**
 * `.hel/hooks.json`: parsing (JSONC) and validation. A file with any mistake is rejected as a
 * whole, with a message naming the file, line, column, field and the fix. Unknown fields are
 * mistakes, so a typo never silently disables a guard.
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

/** The parse result: the config, or one message naming the file, place, field and fix. */
export type HooksConfigResult = { ok: true; config: HooksConfig } | { ok: false; message: string };

/** True when the handler runs for a call of `toolName`. */
export function matches(handler: HookHandler, toolName: string): boolean {
  return handler.pattern === undefined || handler.pattern.test(toolName);
}

class Invalid extends Error {
  constructor(readonly node: Node | undefined, message: string) {
    super(message);
  }
}

/** Parses and validates the bytes of `path`. */
export function parseHooksConfig(bytes: Uint8Array, path: string): HooksConfigResult {
  const parsed = parseJsoncConfig(bytes, path, {
    emptyFix: 'write {"hooks": {"PreToolUse": [...]}} or delete it',
    syntaxFix: "fix the JSON (comments and trailing commas are allowed)",
  });
  if (!parsed.ok) return { ok: false, message: parsed.problems[0]! };
  try {
    return { ok: true, config: validate(parsed.root) };
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const at = error.node ? parsed.at(error.node.offset) : path;
    return { ok: false, message: `${at}: ${error.message}` };
  }
}

function validate(root: Node): HooksConfig {
  const top = fields(root, "the top level", ["description", "hooks"], {
    example: '{"hooks": {"PreToolUse": [...]}}',
  });
  const description = top.get("description");
  if (description && description.type !== "string") {
    throw new Invalid(description, 'description must be a string; write "description": "..."');
  }
  const hooksNode = top.get("hooks");
  if (!hooksNode) {
    throw new Invalid(root, 'missing field "hooks"; write {"hooks": {"PreToolUse": [...]}}');
  }
  const events = fields(hooksNode, "hooks", HOOK_EVENTS, {
    unknown: (name) => `unsupported hook event "${name}" in hooks; use PreToolUse or PostToolUse`,
    example: '{"PreToolUse": [...], "PostToolUse": [...]}',
  });
  const config: HooksConfig = { PreToolUse: [], PostToolUse: [] };
  let total = 0;
  for (const event of HOOK_EVENTS) {
    const groups = events.get(event);
    if (!groups) continue;
    const groupList = array(groups, `hooks.${event}`, '[{"matcher": "^bash$", "hooks": [...]}]');
    groupList.forEach((groupNode, g) => {
      const where = `hooks.${event}[${g}]`;
      const group = fields(groupNode, where, ["matcher", "hooks"], {
        example: '{"matcher": "^bash$", "hooks": [{"type": "command", "command": "..."}]}',
      });
      const { matcher, pattern } = parseMatcher(group.get("matcher"), where);
      const list = group.get("hooks");
      if (!list) {
        throw new Invalid(
          groupNode,
          `missing field "hooks" in ${where}; add "hooks": [{"type": "command", "command": "..."}]`,
        );
      }
      array(list, `${where}.hooks`, '[{"type": "command", "command": "..."}]').forEach(
        (handlerNode, h) => {
          if (++total > MAX_HANDLERS) {
            throw new Invalid(
              handlerNode,
              `more than ${MAX_HANDLERS} hook handlers; combine commands into fewer handlers`,
            );
          }
          config[event].push({
            event,
            index: config[event].length,
            matcher,
            pattern,
            ...parseHandler(handlerNode, `${where}.hooks[${h}]`),
          });
        },
      );
    });
  }
  return config;
}

function parseMatcher(node: Node | undefined, where: string) {
  if (!node) return { matcher: undefined, pattern: undefined };
  if (node.type !== "string") {
    throw new Invalid(
      node,
      `${where}.matcher must be a string (a regular expression over tool names), ` +
        'e.g. "matcher": "^search_replace$"',
    );
  }
  const matcher = node.value as string;
  if (matcher === "" || matcher === "*") return { matcher, pattern: undefined };
  try {
    return { matcher, pattern: new RegExp(matcher, "u") };
  } catch (error) {
    throw new Invalid(
      node,
      `${where}.matcher is not a valid regular expression (${errorMessage(error)}); ` +
        'write one such as "^search_replace$", or leave it out to match every tool',
    );
  }
}

function parseHandler(node: Node, where: string) {
  const handler = fields(node, where, ["type", "command", "timeout", "on_error", "sandbox"], {
    example: '{"type": "command", "command": "./check.sh", "timeout": 30}',
  });
  const type = handler.get("type");
  if (!type || type.type !== "string" || type.value !== "command") {
    throw new Invalid(type ?? node, `${where}.type must be "command"; write "type": "command"`);
  }
  const command = handler.get("command");
  if (!command || command.type !== "string" || (command.value as string).trim() === "") {
    throw new Invalid(
      command ?? node,
      `${where}.command must be a non-blank string (run by /bin/sh -c in the project, inside ` +
        'the sandbox unless the handler says "sandbox": false), ' +
        'e.g. "command": "./scripts/check.sh"',
    );
  }
  const timeout = handler.get("timeout");
  let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (timeout) {
    if (
      timeout.type !== "number" || !Number.isInteger(timeout.value) || timeout.value <= 0 ||
      timeout.value > MAX_TIMER_SECONDS
    ) {
      throw new Invalid(
        timeout,
        `${where}.timeout must be a positive whole number of seconds, at most ` +
          `${MAX_TIMER_SECONDS} (about 24 days), e.g. "timeout": 30 (default ` +
          `${DEFAULT_TIMEOUT_SECONDS})`,
      );
    }
    timeoutSeconds = timeout.value as number;
  }
  const onError = handler.get("on_error");
  if (onError && (onError.type !== "string" || !["continue", "block"].includes(onError.value))) {
    throw new Invalid(
      onError,
      `${where}.on_error must be "continue" (the default: report the failure, run the call) ` +
        'or "block" (a failed hook stops the call)',
    );
  }
  const sandbox = handler.get("sandbox");
  if (sandbox && sandbox.type !== "boolean") {
    throw new Invalid(
      sandbox,
      `${where}.sandbox must be true (the default: the command runs in the sandbox, like bash) ` +
        'or false (it runs outside, with your rights); write "sandbox": false without quotes',
    );
  }
  return {
    command: command.value as string,
    timeoutSeconds,
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

/** The fields of an object node by name; unknown and duplicate names are mistakes. */
function fields(
  node: Node,
  where: string,
  allowed: readonly string[],
  options: FieldsOptions,
): Map<string, Node> {
  if (node.type !== "object") {
    throw new Invalid(node, `${where} must be an object, e.g. ${options.example}`);
  }
  const found = new Map<string, Node>();
  for (const { name, key, value } of jsoncProperties(node)) {
    if (!allowed.includes(name)) {
      const hint = didYouMean(name, allowed);
      throw new Invalid(
        key,
        options.unknown?.(name) ??
          `unknown field "${name}" in ${where}${hint}; allowed fields: ${allowed.join(", ")}`,
      );
    }
    if (found.has(name)) {
      throw new Invalid(key, `field "${name}" appears twice in ${where}; keep one`);
    }
    found.set(name, value);
  }
  return found;
}

function array(node: Node, where: string, example: string): Node[] {
  if (node.type !== "array") throw new Invalid(node, `${where} must be a list, e.g. ${example}`);
  return node.children ?? [];
}
