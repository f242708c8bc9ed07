/**
 * The "don't ask again this session" rules of a chat: what the person allowed with "a" at a
 * permission question, listed and removable with `/permissions`, forgotten when hel exits.
 * A rule covers a call only when the call's own scope (as its tool described it) is the very
 * scope of the rule: a rule for `npm test` never covers `npm test && rm -rf ~`, whose scope is
 * none, and a rule for one MCP server never covers another's tools.
 *
 * @module
 */
import type { ApprovalRequest, ApprovalScope } from "../../core/permissions.ts";
import { shownName } from "./shown_text.ts";

function sameScope(a: ApprovalScope, b: ApprovalScope): boolean {
  switch (a.kind) {
    case "tool":
      return b.kind === "tool" && b.tool === a.tool;
    case "command":
      return b.kind === "command" && b.tool === a.tool && b.prefix === a.prefix;
    case "server":
      return b.kind === "server" && b.server === a.server;
  }
}

/** The session's rules, in the order they were added. */
export class SessionRules {
  #rules: ApprovalScope[] = [];

  /** Adds a rule; one already there is not added twice. */
  add(scope: ApprovalScope): void {
    if (!this.#rules.some((rule) => sameScope(rule, scope))) this.#rules.push({ ...scope });
  }

  /** The rules, in the order they were added (a copy). */
  list(): ApprovalScope[] {
    return this.#rules.map((rule) => ({ ...rule }));
  }

  /** Removes the rule at `index` (of {@link list}); returns it, or undefined when none is there. */
  remove(index: number): ApprovalScope | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#rules.length) return undefined;
    return this.#rules.splice(index, 1)[0];
  }

  /**
   * Whether a rule allows `request` without asking: its scope is a rule's scope, and a tool or
   * command rule is for the very tool asked about.
   */
  covers(request: ApprovalRequest): boolean {
    const scope = request.scope;
    if (scope === undefined) return false;
    if (scope.kind !== "server" && scope.tool !== request.toolName) return false;
    return this.#rules.some((rule) => sameScope(rule, scope));
  }
}

/**
 * What a rule covers, in the words of the question's choice and of `/permissions`:
 * "bash commands starting with `npm test`", "every tool of the MCP server `github`",
 * "write_file". Names are shown neutralised.
 */
export function describeScope(scope: ApprovalScope): string {
  switch (scope.kind) {
    case "tool":
      return shownName(scope.tool);
    case "command":
      return `${shownName(scope.tool)} commands starting with \`${shownName(scope.prefix)}\``;
    case "server":
      return `every tool of the MCP server \`${shownName(scope.server)}\``;
  }
}
