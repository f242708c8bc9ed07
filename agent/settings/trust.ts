/**
 * Trust of the project's settings file: its widening parts (widening.ts) apply only once the
 * person trusted the file's exact bytes, recorded as kind `settings` in the same store and by
 * the same review as hooks.json and mcp.json (`hel trust settings`). Untrusted, hel asks on a
 * terminal; without one it skips those parts with one warning, and the rest applies.
 *
 * @module
 */
import type { PluginContext } from "../../core/plugin.ts";
import type { TrustedConfig, TrustEntry, TrustSummary } from "../../core/trust.ts";
import { reviewTrust } from "../../kit/mod.ts";
import type { Settings } from "./schema.ts";
import { SETTINGS_FILE } from "./schema.ts";
import { type LowerSettings, splitProjectSettings, type WideningPart } from "./widening.ts";

/** `.hel/settings.jsonc` widens what hel does only once trusted: `hel trust settings`. */
export const SETTINGS_TRUST: TrustedConfig = {
  kind: "settings",
  subject: "settings",
  file: SETTINGS_FILE,
};

/** What the review shows: each widening part, its value and what it would change. */
export function summarizeWidening(widening: readonly WideningPart[]): TrustSummary {
  const entries = widening.map((part): TrustEntry => ({
    label: part.key,
    details: `(${part.why})`,
    command: typeof part.value === "object" ? part.value.join("  ") : String(part.value),
    // Shown as written (escaped), not quoted as a program's words would be.
    shell: true,
    commandLabel: "value",
    program: false,
    envNames: [],
    sandbox: part.key !== "sandbox.mode",
  }));
  return {
    verb: "has",
    noun: {
      one: "widening setting",
      many: "widening settings",
    },
    entries,
  };
}

/** The project file as it applies to this run. */
export interface GatedSettings {
  /** What applies: the whole file when trusted or nothing widens, else the narrowed part. */
  settings: Settings;
  /** The widening parts left out (untrusted), empty when none were. */
  skipped: WideningPart[];
}

/** How {@link gateProjectSettings} may settle an untrusted file. */
export interface GateOptions {
  /** Ask on the terminal when there is one (a run); false: never ask (subcommands). */
  review: boolean;
  /** Told once when widening parts are skipped (undefined: say nothing). */
  warn?: (text: string) => void;
}

/**
 * The project file's settings for this run: all of them when nothing widens or these bytes
 * are trusted (or the person trusts them now, on a terminal), else all but the widening parts.
 */
export async function gateProjectSettings(
  context: PluginContext,
  file: { path: string; bytes: Uint8Array; settings: Settings },
  lower: LowerSettings,
  options: GateOptions,
): Promise<GatedSettings> {
  const { widening, narrowed } = splitProjectSettings(file.settings, lower, context.project);
  if (widening.length === 0) return { settings: file.settings, skipped: [] };
  if (await context.trust.isTrusted(SETTINGS_TRUST.kind, context.project, file.bytes)) {
    return { settings: file.settings, skipped: [] };
  }
  if (options.review && context.interactive) {
    const summary = summarizeWidening(widening);
    const outcome = await reviewTrust(context, SETTINGS_TRUST, file.path, file.bytes, summary);
    if (outcome === "trusted") return { settings: file.settings, skipped: [] };
  }
  options.warn?.(
    `${file.path} sets ${widening.map((part) => part.key).join(", ")}, which would widen what ` +
      "hel may do, and the file is not trusted: those settings were skipped, the rest applies. " +
      'Review it with "hel trust settings", or in scripts pin the reviewed file with ' +
      '"hel trust settings --sha256 HEX"',
  );
  return { settings: narrowed, skipped: widening };
}
