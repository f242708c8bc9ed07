/**
 * Saving a "don't ask again" answer as a permission rule, so later runs follow it too: appended
 * to `permissions.allow` of the person's settings (`$HEL_HOME/settings.jsonc`) or the project's
 * (`.hel/settings.jsonc`), comments and layout kept. The rule is the scope's
 * ({@link ruleForScope}: `write_file`, `bash(npm test:*)`, `mcp__github__*`). A project file hel
 * changes stays trusted only if it was (kit/config/trusted_edit.ts).
 *
 * @module
 */
import { projectSettingsPath, userSettingsPath } from "../../agent/settings/files.ts";
import { parse, type ParseError } from "jsonc-parser";
import type { ApprovalScope } from "../../core/permissions.ts";
import { ruleForScope } from "../../core/permission_rule_text.ts";
import type { PluginContext } from "../../core/plugin.ts";
import { errorMessage } from "../../core/errors.ts";
import { editJsoncFile } from "../../kit/config/jsonc_edit.ts";
import { editTrustedJsonc } from "../../kit/config/trusted_edit.ts";
import { lstatOrUndefined } from "../../kit/safe_write.ts";
import { shownPath } from "../settings_apply.ts";

/** Where a rule is saved: the person's settings, or the project's. */
export type SavePlace = "user" | "project";

/** The settings files as the question names them. */
export type SavePlaces = Record<SavePlace, string>;

/** A rule saved in this chat. */
export interface SavedRule {
  rule: string;
  place: SavePlace;
  /** The file, as shown to the person. */
  shown: string;
}

/** Saves rules; remembers those saved in this chat for `/permissions`. */
export interface RuleSaver {
  places: SavePlaces;
  /** The rule saved, or what went wrong (naming the file and the fix). */
  save(scope: ApprovalScope, place: SavePlace): Promise<SavedRule | { problem: string }>;
  saved(): readonly SavedRule[];
}

/** The path to append to: the end of `permissions.allow`, made when missing. */
const ALLOW_END = ["permissions", "allow", -1];

/** A saver for the project and `$HEL_HOME` of `context`; `home` shortens the shown path. */
export function ruleSaver(
  context: Pick<PluginContext, "project" | "helHome" | "trust">,
  home?: string,
): RuleSaver {
  const files: Record<SavePlace, string> = {
    user: userSettingsPath(context.helHome),
    project: projectSettingsPath(context.project),
  };
  const places: SavePlaces = { user: shownPath(files.user, home), project: ".hel/settings.jsonc" };
  const saved: SavedRule[] = [];
  return {
    places,
    saved: () => [...saved],
    async save(scope, place) {
      const rule = ruleForScope(scope);
      const file = files[place];
      const shown = places[place];
      try {
        const listed = await allowList(file, shown);
        if (!listed.includes(rule)) {
          if (place === "user") {
            await editJsoncFile(context.helHome, file, ALLOW_END, () => rule);
          } else {
            await editTrustedJsonc(
              { trust: context.trust, kind: "settings", project: context.project, file },
              ALLOW_END,
              rule,
            );
          }
        }
      } catch (error) {
        return { problem: `could not save the rule ${rule} in ${shown}: ${errorMessage(error)}` };
      }
      const entry = { rule, place, shown };
      if (!saved.some((other) => other.rule === rule && other.place === place)) saved.push(entry);
      return entry;
    },
  };
}

/** `permissions.allow` of the file now (none when there is no file); a wrong shape throws. */
async function allowList(file: string, shown: string): Promise<unknown[]> {
  const info = await lstatOrUndefined(file);
  if (!info) return [];
  // A project file could be a planted link (to a FIFO, /dev/zero, a secret): never read it.
  if (!info.isFile) {
    throw new Error(
      `${shown} is ${info.isSymlink ? "a symbolic link" : "not a plain file"}; hel reads and ` +
        "writes settings only in a plain file: remove it, then answer again",
    );
  }
  const text = await Deno.readTextFile(file);
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) ?? {};
  const permissions = (value as Record<string, unknown>).permissions ?? {};
  const allow = (permissions as Record<string, unknown>).allow ?? [];
  if (errors.length > 0 || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${shown} is not a JSON object (with comments); fix it by hand first`);
  }
  if (typeof permissions !== "object" || Array.isArray(permissions) || !Array.isArray(allow)) {
    throw new Error(
      `"permissions" must be an object and "permissions.allow" a list of rules; fix it by hand`,
    );
  }
  return allow;
}
