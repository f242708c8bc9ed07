/**
 * The kernel's public face: the contracts plugins implement (tools, plugins, events), the host
 * API, and the few pure helpers (text, neutralising outside text) that go with them. Plugins
 * import the core only through this module; shared machinery with I/O is in kit/mod.ts.
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
  ToolMedia,
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
export type { HookName, InterceptionPoint, PluginHooks } from "./plugin_hooks.ts";
export type { ArgumentCompletion, ChatCommand, ChatCommandOutcome } from "./chat_command.ts";
export type {
  ApprovalScope,
  CallDescription,
  CallPreview,
  PermissionRule,
  PermissionRules,
} from "./permissions.ts";
export type { CommandPart, RuleDecision, RuleEffect, RuleTarget } from "./permission_rules.ts";
export { checkRule, ruleForScope } from "./permission_rule_text.ts";
export { errorMessage, PluginHookError } from "./errors.ts";
export { toolDefinition } from "./tool_registry.ts";
export type * from "./events.ts";
export type { TrustedConfig, TrustKind, TrustRecord, TrustStore } from "./trust.ts";
export type { FileReading } from "./file_reading.ts";
export type {
  FormAnswer,
  FormField,
  FormFieldKind,
  FormLink,
  FormOption,
  FormQuestion,
  FormValue,
} from "./form.ts";
export { UsageError } from "./usage_error.ts";
export { MAX_TIMER_SECONDS } from "./timer_limit.ts";
export {
  clipChars,
  codePointLength,
  editDistance,
  estimateTokens,
  groupDigits,
  headChars,
  tailChars,
} from "./text.ts";
export type { TrustEntry, TrustSummary } from "./trust.ts";
export { neutralise, type NeutraliseOptions } from "./neutralise.ts";
export { defineTool, type ToolSpec } from "./define_tool.ts";
export { optionKey, optionValue, withDefaults } from "./plugin_options.ts";
export type { ArgumentCheck } from "./argument_problems.ts";
export {
  compileForeignSchema,
  compileSchemaCheck,
  type DeferredSchemaCheck,
  deferSchemaCheck,
  MAX_SCHEMA_CHARS,
  type SchemaCheck,
  schemaValidator,
} from "./schema_check.ts";
export { isRecord } from "./is_record.ts";
export { z } from "zod";
