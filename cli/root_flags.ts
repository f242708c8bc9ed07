/**
 * The parsed flags of the root command, as the default action reads them: hel's own, the
 * plugins' (by camelCase name), and what the settings files filled in.
 *
 * @module
 */
import type { PermissionRules } from "../core/permissions.ts";
import type { AccessLevel } from "../core/types.ts";
import type { OutputFormat } from "./output/format.ts";
import type { ModelInput } from "../agent/model/media_parts.ts";

/** The parsed flags of the root command (plugin flags included, by camelCase name). */
export type RootFlags = Record<string, unknown> & {
  instruction?: string;
  model: string;
  baseUrl: string;
  access: AccessLevel;
  approvalInput?: string;
  env: boolean;
  /** The context files (`--context-file`, repeatable), or false (`--no-context-file`). */
  contextFile: readonly string[] | false;
  maxTurns: number;
  without: string[];
  stream: boolean;
  timeout: number;
  maxOutputTokens: number;
  /** What the model takes besides text (`--model-input`, `modelInput`). */
  modelInput: readonly ModelInput[];
  continue?: boolean;
  resume?: string | true;
  forkSession?: boolean;
  contextWindow?: number;
  compactAt?: number;
  keepRecent?: number;
  compaction: boolean;
  record?: string;
  rawOutput?: boolean;
  outputFormat: OutputFormat;
  /** The output format came from a settings file, not a flag: the chat ignores it. */
  formatFromSettings?: boolean;
  /** From the settings files: the variable holding the model API key. */
  apiKeyEnv?: string;
  /** From the settings files: their permission rules (the project's only as trusted). */
  permissions?: PermissionRules;
};
