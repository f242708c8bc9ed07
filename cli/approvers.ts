/**
 * Who answers "Allow this call once? [y/N]": the person at the terminal, a scripted file of
 * answers (`--approval-input`, for tests and evals), or nobody.
 *
 * @module
 */
import { errorMessage } from "../core/errors.ts";
import type { ApprovalAnswer, Approver } from "../core/permissions.ts";
import { escapeControlCharacters } from "../kit/trust/review.ts";
import { UsageError } from "../core/usage_error.ts";
import { shownBlankRuns } from "../core/neutralise.ts";
import { resolve } from "node:path";
import { surroundings } from "../kit/surroundings.ts";
import { writeErr } from "../kit/output.ts";

/** What the person reads when a call needed approval and nobody could give it. */
export const UNANSWERED_NOTICE =
  "hel: a tool call needed approval and no one could answer; use --access auto or an allow rule";

/**
 * `approver`, telling the person once per run (on stderr) when a call needed approval and no
 * one could answer (no terminal, or the answers ran out): otherwise a script sees only that
 * the work was not done. The model hears of each such call in its result.
 */
export function noticeWhenUnanswered(approver: Approver, write = writeErr): Approver {
  let told = false;
  return {
    async approve(request, signal) {
      const answer = await approver.approve(request, signal);
      if (answer.approval === "unavailable" && !told) {
        told = true;
        write(`${UNANSWERED_NOTICE}\n`);
      }
      return answer;
    },
  };
}

/** Asks on the terminal; no terminal or end of input counts as unavailable (a denial). */
export function terminalApprover(
  ask: (question: string, signal?: AbortSignal) => Promise<string | undefined>,
): Approver {
  return {
    async approve({ toolName, args }, signal) {
      const answer = await ask(
        // What the person approves must read exactly as what runs: no terminal tricks, and no
        // padding that scrolls the start of a command off the screen.
        `permission: ${
          shownBlankRuns(escapeControlCharacters(`${toolName} ${JSON.stringify(args)}`))
        }\n` +
          "Allow this call once? [y/N] ",
        signal,
      );
      // Ctrl-C at the question is the person saying no (and stopping the turn).
      if (signal?.aborted) return { approval: "denied" };
      if (answer === undefined) return { approval: "unavailable" };
      return { approval: /^(y|yes)$/i.test(answer) ? "approved" : "denied" };
    },
  };
}

/** Answers from a JSON list of booleans, one per question; exhausted → unavailable. */
export async function fileApprover(path: string): Promise<Approver> {
  let answers: unknown;
  try {
    answers = JSON.parse(await Deno.readTextFile(resolve(surroundings().cwd(), path)));
  } catch (error) {
    throw new UsageError(
      `--approval-input ${path}: ${errorMessage(error)}; give a JSON list such as [true, false]`,
    );
  }
  if (!Array.isArray(answers) || !answers.every((a) => typeof a === "boolean")) {
    throw new UsageError(
      `--approval-input ${path}: expected a JSON list of booleans such as [true, false]`,
    );
  }
  const queue = [...answers] as boolean[];
  return {
    approve(): Promise<ApprovalAnswer> {
      const next = queue.shift();
      return Promise.resolve({
        approval: next === undefined ? "unavailable" : next ? "approved" : "denied",
      });
    },
  };
}
