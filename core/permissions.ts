/**
 * Access levels: the pure decision of whether a call of a given tool class may run at a given
 * access level. Asking the person is not done here; the CLI supplies an {@link Approver}.
 *
 * @module
 */
import type { RuleDecision } from "./permission_rules.ts";
import type { AccessLevel, ToolClass } from "./types.ts";

/** The decision before any question is asked. */
export type PermissionDecision = "allow" | "ask" | "deny";

/** A person's answer to "Allow this call once?"; `unavailable` when nobody can answer. */
export type Approval = "approved" | "denied" | "unavailable";

/**
 * What the person sees before approving a call. Tools describe their own calls
 * ({@link Tool.describeCall}); text in it is the tool's or the model's and must be neutralised
 * before it is shown.
 */
export type CallPreview =
  /** A shell command and the folder it runs in. */
  | { kind: "command"; command: string; cwd: string }
  /** A file's change: `before` null for a new file. Shown as a unified diff. */
  | { kind: "file_change"; path: string; before: string | null; after: string }
  /** Any other call: its arguments, with the MCP server and tool when it is one. */
  | { kind: "arguments"; args: unknown; server?: string; tool?: string };

/**
 * What "yes, and don't ask again this session" covers: the tool, a command's leading words
 * (offered only for a simple command, so `npm test; rm -rf ~` is never covered by `npm test`),
 * or every tool of an MCP server.
 */
export type ApprovalScope =
  | { kind: "tool"; tool: string }
  | { kind: "command"; tool: string; prefix: string }
  | { kind: "server"; server: string };

/** A tool's description of one call, for the permission question. */
export interface CallDescription {
  preview: CallPreview;
  /** Undefined: no "don't ask again" choice is offered for this call. */
  scope: ApprovalScope | undefined;
}

/** One permission question. */
export interface ApprovalRequest extends CallDescription {
  toolName: string;
  args: Record<string, unknown>;
  /**
   * The rule that made hel ask: an ask rule, or a deny rule hel could not tell covers the call
   * (`uncertain`). Such a question offers no "don't ask again" (its scope is undefined).
   */
  byRule?: RuleDecision;
}

/** The person's answer; `instead` is what to do instead, sent to the model with a refusal. */
export interface ApprovalAnswer {
  approval: Approval;
  instead?: string;
}

/** Answers permission questions: a terminal, a scripted file, or nobody. Must not throw. */
export interface Approver {
  /** `signal` is the call's: once it aborts (Ctrl-C), the question is given up as denied. */
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer>;
}

/** The description of a call whose tool has none: its arguments, the tool as the scope. */
export function plainDescription(toolName: string, args: unknown): CallDescription {
  return { preview: { kind: "arguments", args }, scope: { kind: "tool", tool: toolName } };
}

/**
 * A permission rule as a settings file writes it — `read_file`, `bash(npm test:*)` (a command
 * prefix), `write_file(src/**)` (a path glob inside the project), `mcp__github__*` — with the
 * file it came from, so a refusal can name it.
 */
export interface PermissionRule {
  rule: string;
  /** The settings file (or other origin) that gave the rule, as shown to the person. */
  source: string;
}

/** A run's permission rules by effect: deny beats ask beats allow. */
export interface PermissionRules {
  allow: readonly PermissionRule[];
  ask: readonly PermissionRule[];
  deny: readonly PermissionRule[];
}

/** The known access levels, in the order the help text lists them. */
export const ACCESS_LEVELS = ["read-only", "confirm", "auto"] as const satisfies AccessLevel[];

/**
 * Reads are always allowed; `auto` allows everything; `read-only` denies writes and
 * execution; `confirm` asks once per call (never cached).
 */
export function decidePermission(access: AccessLevel, toolClass: ToolClass): PermissionDecision {
  if (toolClass === "read" || access === "auto") return "allow";
  return access === "read-only" ? "deny" : "ask";
}

/**
 * The decision once the rules have had their say: a deny rule refuses at every access level;
 * `read-only` stays read-only (allow rules do not widen it); an ask rule asks even in `auto`;
 * an allow rule lets `confirm` run the call without a question.
 */
export function decideWithRules(
  access: AccessLevel,
  toolClass: ToolClass,
  byRule: RuleDecision | undefined,
): { decision: PermissionDecision; byRule?: RuleDecision } {
  const base = decidePermission(access, toolClass);
  if (byRule?.effect === "deny") return { decision: "deny", byRule };
  if (base === "deny") return { decision: "deny" };
  if (byRule?.effect === "ask") return { decision: "ask", byRule };
  if (byRule?.effect === "allow" && base === "ask") return { decision: "allow", byRule };
  return { decision: base };
}

/** The model-facing text for a call a deny rule refused: which rule, where, what to do next. */
export function ruleDeniedText(toolName: string, rule: PermissionRule): string {
  return `permission denied: ${toolName} is refused by the rule "${rule.rule}" ` +
    `(permissions.deny in ${rule.source}). Do not try the same thing another way; continue ` +
    "with other tools, or tell the user what you need and that this rule stops it.";
}

/** The model-facing text for a refused call: what happened and what to do next. */
export function permissionDeniedText(
  toolName: string,
  access: AccessLevel,
  approval: Approval | null,
  instead?: string,
): string {
  const why = approval === null
    ? `the access level ${access} does not allow this kind of tool`
    : approval === "denied"
    ? "the user declined this call"
    : "nobody was available to approve this call";
  const head =
    `permission denied: ${toolName} (access=${access}, approval=${approval ?? "none"}): ` +
    `${why}.`;
  if (instead !== undefined && instead.trim() !== "") {
    return `${head} The user says what to do instead: ${instead.trim()}`;
  }
  return `${head} Do not retry the same call; continue with other tools or explain what you need.`;
}

/**
 * Whether a saved tool result is the refusal {@link permissionDeniedText} writes when the person
 * said no: a decision, shown as declined, not as a failure, when a conversation is shown again.
 */
export function declinedByPerson(toolResult: string): boolean {
  return /^error: permission denied: .*\(access=[^)]*, approval=denied\)/.test(toolResult);
}
