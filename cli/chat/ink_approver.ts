/**
 * The chat's answer to core's permission question: a call the session's rules cover is approved
 * without asking (and the transcript says which rule allowed it); any other opens the permission
 * box and waits for the person. "a" (yes, don't ask again) adds the call's scope to the rules;
 * "u" and "p" also save it as an allow rule in the person's or the project's settings, so later
 * runs follow it. Esc, an interrupted turn or leaving the chat is a no.
 *
 * @module
 */
import type { ApprovalAnswer, Approver } from "../../core/permissions.ts";
import { escapeControlCharacters } from "../../core/neutralise.ts";
import type { RuleSaver } from "./rule_saver.ts";
import { describeScope, type SessionRules } from "./session_rules.ts";
import type { ChatStore } from "./store.ts";

/** The approver of the Ink chat; with a `saver`, answers can be saved as rules. */
export function inkApprover(store: ChatStore, rules: SessionRules, saver?: RuleSaver): Approver {
  return {
    async approve(request, signal): Promise<ApprovalAnswer> {
      if (rules.covers(request) && request.scope) {
        store.notice(
          `${request.toolName}: allowed without asking by this session's rule for ` +
            escapeControlCharacters(describeScope(request.scope)),
        );
        return { approval: "approved" };
      }
      const places = saver && request.scope ? saver.places : undefined;
      const answer = await store.ask(request, signal, places);
      if (signal?.aborted) return { approval: "denied" };
      if (answer.approval === "approved" && answer.always && request.scope) {
        rules.add(request.scope);
        if (answer.save && saver) {
          const saved = await saver.save(request.scope, answer.save);
          if ("problem" in saved) store.notice(escapeControlCharacters(saved.problem), "warning");
          else {
            store.notice(
              escapeControlCharacters(
                `saved the rule ${saved.rule} in ${saved.shown}: such calls run without a ` +
                  "question from now on",
              ),
            );
          }
        }
      }
      const instead = answer.instead?.trim();
      return { approval: answer.approval, ...(instead ? { instead } : {}) };
    },
  };
}
