/**
 * Every `.hel` folder in the project, nested ones included (a monorepo's `pkg/.hel` holds the
 * sessions and the trusted hook scripts of hel runs in `pkg/`). The sandbox hides each one, so
 * a sandboxed program can neither read another project's conversations nor rewrite the scripts
 * its hooks run.
 *
 * They are not searched for here: the project's git watch (planted_git.ts) already reads the
 * whole tree once when the first sandbox starts, and after each sandboxed program re-reads only
 * the folders whose ctime moved (tree_changes.ts). Its folder list answers, under any spelling
 * of `.hel`. A `.hel` made while a program runs is hidden from the programs after it; one made
 * outside the sandbox between two programs (the person's own hel in a subfolder) is seen at the
 * next look, after the next program. A session a program forged there is refused anyway
 * (core/session/session_record.ts). Links named `.hel` are not followed: hel refuses a `.hel`
 * that is not a real folder, so no session or hook of it is used.
 *
 * Cost: the watch's, measured there; finding the names among the known folders is a filter of
 * a list (under a millisecond for 15,000 folders).
 *
 * @module
 */
import { isHelName } from "../paths.ts";
import type { GitWatch } from "./planted_git.ts";

/** The nested `.hel` folders the watch knows of, the project's own (`helDir`) left out. */
export async function nestedHelFolders(watch: GitWatch, helDir: string): Promise<string[]> {
  return (await watch.foldersNamed(isHelName)).filter((dir) => dir !== helDir);
}
