/**
 * The only module plugins import: the contracts (types), the host API and the helpers the core
 * shares with plugins. Core internals stay behind it.
 *
 * @module
 */
export type {
  AccessLevel,
  AssistantMessage,
  BlockDecision,
  ChatMessage,
  JsonSchema,
  SystemMessage,
  Tool,
  ToolCall,
  ToolCallInfo,
  ToolCategory,
  ToolClass,
  ToolContext,
  ToolDefinition,
  ToolLookup,
  ToolMessage,
  ToolResult,
  Usage,
  UserMessage,
} from "./types.ts";
export type {
  Host,
  Logger,
  Plugin,
  PluginCommand,
  PluginContext,
  PluginFactory,
  PluginOption,
} from "./plugin.ts";
export type * from "./events.ts";
export type { TrustKind, TrustRecord, TrustStore } from "./trust/trust_store.ts";
export { sha256Hex } from "./trust/trust_file_store.ts";
export { fileStart, sha256OfFile } from "./file_digest.ts";
export { UsageError } from "./usage_error.ts";
export { MAX_TIMER_SECONDS } from "./timer_limit.ts";
export { withFileLock, writePrivateFile } from "./private_file.ts";
export {
  appendLine,
  lstatOrUndefined,
  makeFolderChain,
  openFileNoFollow,
  UnsafePathError,
  writeFileAtomic,
  writeNewFile,
} from "./safe_write.ts";
export { codePointLength, editDistance, estimateTokens, headChars, tailChars } from "./text.ts";
export { escapeControlCharacters, reviewTrust, type TrustOutcome } from "./trust/trust_review.ts";
export type { TrustEntry, TrustSummary } from "./trust/trust_summary.ts";
export { neutralise, type NeutraliseOptions } from "./neutralise.ts";
export { writeErr, writeOut } from "./cli/output.ts";
export {
  findSystemProgram,
  inNewProcessGroup,
  processGroupAlive,
  signalProcessGroup,
} from "./process/process_group.ts";
export { createTrustFileStore } from "./trust/trust_file_store.ts";
export { type ProjectConfigFile, readProjectConfig } from "./config/project_config.ts";
export {
  didYouMean,
  type JsoncParse,
  type JsoncParseOptions,
  jsoncProperties,
  type JsoncProperty,
  parseJsoncConfig,
} from "./config/jsonc_config.ts";
export {
  type ChildOutcome,
  type ChildSpec,
  type ChildStop,
  runChild,
} from "./process/child_process.ts";
/** The model API keys hel keeps from every child (a `--sandbox-env` cannot pass them). */
export { SECRET_ENV_NAMES } from "./host.ts";
