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
 * (agent/session/record.ts). Links named `.hel` are not followed: hel refuses a `.hel`
 * that is not a real folder, so no session or hook of it is used.
 *
 * Cost: the watch's (on the 2-core development machine under load, for /usr's 15,450 folders:
 * 0.55 s to read the tree at start, 55-80 ms to look after a program); picking the `.hel`
 * names from the known folders adds 6-15 ms there, 0.1 ms for hel's own checkout.
 *
 * @module
 */
import { isHelName } from "../paths.ts";
import type { GitWatch } from "./planted_git.ts";

/** The nested `.hel` folders the watch knows of, the project's own (`helDir`) left out. */
export async function nestedHelFolders(watch: GitWatch, helDir: string): Promise<string[]> {
  return (await watch.foldersNamed(isHelName)).filter((dir) => dir !== helDir);
}
