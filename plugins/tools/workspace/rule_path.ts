/**
 * What permission rules with a path (`write_file(src/**)`) are matched against: the path a call
 * acts on, resolved inside the project as the tool itself resolves it (after `..` and symbolic
 * links), relative to the project with `/` between names. A path the tools refuse (outside the
 * project, in `.hel`, through a dangling link) matches no rule: the call fails on its own.
 *
 * @module
 */
import { relative, sep } from "node:path";
import type { RuleTarget } from "../../../core/mod.ts";
import { isWithin } from "../../../kit/mod.ts";
import { resolveInWorkspace, type ResolveOptions, type Workspace } from "./confinement.ts";

type PathTarget = Extract<RuleTarget, { kind: "path" }>;

/** The rule target of a call acting on `given` (undefined: no path, so no match). */
export async function pathTarget(
  workspace: Workspace,
  given: string | undefined,
  options: Omit<ResolveOptions, "allowSpill"> = {},
): Promise<PathTarget> {
  if (given === undefined) return { kind: "path", path: undefined };
  const resolved = await resolveInWorkspace(workspace, given, options);
  if (!resolved.ok) return { kind: "path", path: undefined };
  // isWithin, not a `..` prefix: `..env` is a file in the project, and deny rules cover it.
  if (!isWithin(workspace.project, resolved.path)) return { kind: "path", path: undefined };
  const inside = relative(workspace.project, resolved.path);
  return { kind: "path", path: inside === "" ? "." : inside.split(sep).join("/") };
}

/**
 * The rule target of a search under `given`: it reads the whole folder, so a deny rule for a
 * file in it asks rather than passes.
 */
export async function treeTarget(workspace: Workspace, given: string): Promise<PathTarget> {
  return { ...await pathTarget(workspace, given), tree: true };
}
