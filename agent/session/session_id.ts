/**
 * Session ids as people give them: the whole UUID hel prints (`session: <id>`), or its start —
 * at least the {@link SHORT_ID_LENGTH} characters `hel sessions` shows — which must name one
 * session of the project. Used wherever an id is accepted (`--resume`, `hel sessions show`,
 * `export`, `delete`, the chat's `/resume`).
 *
 * @module
 */
import { UsageError } from "../../core/usage_error.ts";
import { isSessionId, sessionIds } from "./store.ts";

/** How many characters of an id `hel sessions` shows, and the fewest accepted. */
export const SHORT_ID_LENGTH = 8;

/** The shape of a session id, `x` for a lowercase hex digit. */
const SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

/** True when `text` is the start (or all) of a lowercase UUID. */
function fitsShape(text: string): boolean {
  if (text.length > SHAPE.length) return false;
  return [...text].every((char, index) =>
    SHAPE[index] === "-" ? char === "-" : /^[0-9a-f]$/.test(char)
  );
}

/** The first {@link SHORT_ID_LENGTH} characters of `id`, as `hel sessions` shows it. */
export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/**
 * Throws a usage error unless `given` is a session id or the start of one of at least
 * {@link SHORT_ID_LENGTH} characters, in lowercase. With `flag` (`--resume`), the error also
 * says how to resume with an instruction.
 */
export function checkSessionId(given: string, flag?: string): void {
  if (given.length >= SHORT_ID_LENGTH && fitsShape(given)) return;
  if (given.length >= SHORT_ID_LENGTH && fitsShape(given.toLowerCase())) {
    throw new UsageError(`session id ${given}: write it in lowercase, as hel printed it`);
  }
  const hint = flag
    ? `; to continue the most recent session with an instruction, write hel -c "<instruction>"`
    : "";
  throw new UsageError(
    `${flag ? `${flag}: ` : ""}invalid session id "${given}" (expected the id hel sessions ` +
      `shows, its first ${SHORT_ID_LENGTH} characters at least, or the whole id printed as ` +
      `"session: <id>")${hint}`,
  );
}

/**
 * The whole id of the session of `project` that `given` names (see the module comment).
 * Throws a usage error when it names none, or several (listing them).
 */
export async function resolveSessionId(project: string, given: string): Promise<string> {
  checkSessionId(given);
  if (isSessionId(given)) return given; // whether it exists is for the caller to say
  const matches = (await sessionIds(project)).filter((id) => id.startsWith(given)).sort();
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new UsageError(`no session ${given} in this project (run hel sessions to list them)`);
  }
  throw new UsageError(
    `session id ${given} is ambiguous: it starts ${matches.length} sessions of this project ` +
      `(${matches.join(", ")}); give more of the id`,
  );
}
