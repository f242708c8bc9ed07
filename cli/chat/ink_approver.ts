/**
 * The chat's answer to core's permission question: a call the session's rules cover is approved
 * without asking (and the transcript says which rule allowed it); any other opens the permission
 * box and waits for the person. "a" (yes, don't ask again) adds the call's scope to the rules;
 * Esc, an interrupted turn or leaving the chat is a no.
 *
 * @module
 */
import type { ApprovalAnswer, Approver } from "../../core/permissions.ts";
import { escapeControlCharacters } from "../../core/neutralise.ts";
import { describeScope, type SessionRules } from "./session_rules.ts";
import type { ChatStore } from "./store.ts";

/** The approver of the Ink chat. */
export function inkApprover(store: ChatStore, rules: SessionRules): Approver {
  return {
    async approve(request, signal): Promise<ApprovalAnswer> {
      if (rules.covers(request) && request.scope) {
        store.notice(
          `${request.toolName}: allowed without asking by this session's rule for ` +
            escapeControlCharacters(describeScope(request.scope)),
        );
        return { approval: "approved" };
      }
      const answer = await store.ask(request, signal);
      if (signal?.aborted) return { approval: "denied" };
      if (answer.approval === "approved" && answer.always && request.scope) {
        rules.add(request.scope);
      }
      const instead = answer.instead?.trim();
      return { approval: answer.approval, ...(instead ? { instead } : {}) };
    },
  };
}
