/**
 * Access levels: the pure decision of whether a call of a given tool class may run at a given
 * access level. Asking the person is not done here; the CLI supplies an {@link Approver}.
 *
 * @module
 */
import type { AccessLevel, ToolClass } from "./types.ts";

/** The decision before any question is asked. */
export type PermissionDecision = "allow" | "ask" | "deny";

/** A person's answer to "Allow this call once?"; `unavailable` when nobody can answer. */
export type Approval = "approved" | "denied" | "unavailable";

/** Answers permission questions: a terminal, a scripted file, or nobody. Must not throw. */
export interface Approver {
  /** `signal` is the call's: once it aborts (Ctrl-C), the question is given up as denied. */
  approve(toolName: string, args: unknown, signal?: AbortSignal): Promise<Approval>;
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

/** The model-facing text for a refused call: what happened and what to do next. */
export function permissionDeniedText(
  toolName: string,
  access: AccessLevel,
  approval: Approval | null,
): string {
  const why = approval === null
    ? `the access level ${access} does not allow this kind of tool`
    : approval === "denied"
    ? "the user declined this call"
    : "nobody was available to approve this call";
  return `permission denied: ${toolName} (access=${access}, approval=${approval ?? "none"}): ` +
    `${why}. Do not retry the same call; continue with other tools or explain what you need.`;
}
