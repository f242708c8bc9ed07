/**
 * The contracts shared by the core and every plugin: chat messages, tools, results,
 * access classes and the plugin shape. Types only; no behaviour lives here.
 *
 * @module
 */
import type { ArgumentCheck } from "./argument_problems.ts";
import type { CallDescription } from "./permissions.ts";
import type { RuleTarget } from "./permission_rules.ts";

/** One function call requested by the model, exactly as Chat Completions carries it. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The system message hel builds from its instructions, environment and plugin sections. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** A message the user (or hel on the user's behalf, like a checkpoint) sends. */
export interface UserMessage {
  role: "user";
  content: string;
}

/**
 * An assistant message. It is sent back to the model unchanged, so vendor fields such as
 * DeepSeek's `reasoning_content` survive (the index signature keeps them).
 */
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ToolCall[];
  reasoning_content?: string;
  [vendorField: string]: unknown;
}

/** The answer to one tool call; exactly one per call, in call order. */
export interface ToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** Any message of a Chat Completions conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A JSON Schema object describing a tool's arguments (sent to the model as given). */
export type JsonSchema = Record<string, unknown>;

/** An OpenAI function-tool definition as it appears in a request's `tools` list. */
export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/**
 * What a tool may do, which decides its permission at each access level:
 * `read` is always allowed; `write` and `execute` are denied by read-only and asked by confirm.
 */
export type ToolClass = "read" | "write" | "execute";

/** Category used in run records and reports (read, search, edit, exec or other). */
export type ToolCategory = "read" | "search" | "edit" | "exec" | "other";

/** The user's access level for the whole run (`--access`). */
export type AccessLevel = "read-only" | "confirm" | "auto";

/**
 * The outcome of running a tool. Failures are data: `ok: false` with a text that tells the
 * model what happened and what to do next. Tools must not throw for expected failures.
 */
export interface ToolResult {
  ok: boolean;
  text: string;
  /**
   * Images or audio the tool returned, for a model that accepts them. `text` holds each one's
   * marker already, which is all a model that does not accept them reads.
   */
  media?: readonly ToolMedia[];
}

/**
 * An image or audio clip from a tool result. The conversation keeps only its marker; the data
 * travels beside it to the model client (ModelRequest.media), which attaches it as a content
 * part when the model is declared to accept it, and is never written to the session journal.
 */
export interface ToolMedia {
  kind: "image" | "audio";
  /** The MIME type, checked to look like one (`image/png`). */
  mimeType: string;
  /** Base64, as the tool sent it (checked to be base64). */
  data: string;
  /** Decoded size in bytes. */
  bytes: number;
  /** The text that stands for it in the result, e.g. `[image: image/png, 12.3 KiB]`. */
  marker: string;
}

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** The model's id for this call (`tool_call_id`). */
  callId: string;
  /** Aborted when the user interrupts the run. */
  signal: AbortSignal;
  /**
   * Output as the tool produces it (a command's stdout and stderr), for the person to watch
   * while it runs; what the model reads is still the result. Must not throw.
   */
  onOutput?(text: string): void;
}

/**
 * A tool the model can call. Built-in tools are made with `defineTool` (core/define_tool.ts).
 * `run` receives the decoded argument object after the check; it returns failures as
 * `{ ok: false }` results.
 */
export interface Tool {
  name: string;
  /** Model-facing description (kept in a `.txt` beside the tool). */
  description: string;
  parameters: JsonSchema;
  toolClass: ToolClass;
  category: ToolCategory;
  /**
   * Checks decoded arguments before hooks and the permission question see the call; `run`
   * receives the arguments it returns. Without it the tool-call path checks them against
   * `parameters` (JSON Schema), or, when that schema cannot be compiled, leaves them to `run`.
   */
  checkArguments?(args: Record<string, unknown>): ArgumentCheck;
  /**
   * What the person is shown before approving a call (a command and its folder, a file's
   * change) and what "don't ask again this session" would cover. Without it, or when it
   * throws, the question shows the tool and its arguments and offers the tool as the scope.
   */
  describeCall?(args: Record<string, unknown>): Promise<CallDescription>;
  /**
   * What a permission rule's content (`bash(npm test:*)`, `write_file(src/**)`) is matched
   * against for a call: the commands it runs or the path it acts on. Asked only when a rule
   * with content names the tool; without it only rules naming the tool alone apply. Must not
   * write anything; a throw counts as "hel cannot tell".
   */
  ruleTarget?(args: Record<string, unknown>): Promise<RuleTarget>;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/**
 * How a plugin answers "do you own this tool name?":
 * `tool` it owns and can run it; `not-loaded` it knows the name but the call must not run yet
 * (the message goes to the model as an error and nothing else sees the call).
 */
export type ToolLookup =
  | { kind: "tool"; tool: Tool }
  | { kind: "not-loaded"; message: string };

/** A tool call as interception points see it, after lookup and argument parsing. */
export interface ToolCallInfo {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  tool: Tool;
  /** Aborted when the user interrupts the run; long interceptions (hooks) should stop. */
  signal?: AbortSignal;
}

/** A before-call interception may block the call with a reason for the model. */
export interface BlockDecision {
  block: string;
}

/** Token usage of one model response, as far as the server reported it. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache; undefined when not reported. */
  cachedTokens?: number;
}
