/**
 * The model client contract the loop depends on. Vendors live behind it; the loop never sees
 * HTTP. Failures come back as data (`ok: false`), never as exceptions.
 *
 * @module
 */
import type { RequestPurpose } from "./events.ts";
import type { AssistantMessage, ChatMessage, ToolDefinition, ToolMedia, Usage } from "./types.ts";

/** One request for a completion. */
export interface ModelRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
  purpose: RequestPurpose;
  /**
   * Images and audio of recent tool results, by the `tool_call_id` of the message whose text
   * marks them; the client attaches those its model accepts. Absent: text only.
   */
  media?: ReadonlyMap<string, readonly ToolMedia[]>;
}

/** A completed response. `message` is kept exactly as the model sent it. */
export interface ModelSuccess {
  ok: true;
  message: AssistantMessage;
  finishReason: string | null;
  /** Undefined when the server reported no usage. */
  usage: Usage | undefined;
  /** The model the server says answered. */
  model: string | undefined;
}

/** A request that failed after retries, or was interrupted. */
export interface ModelFailure {
  ok: false;
  /** `timeout` and `interrupted` are kept apart because runs report them differently. */
  kind: "error" | "timeout" | "interrupted";
  error: string;
}

/** The result of {@link ModelClient.complete}. */
export type ModelReply = ModelSuccess | ModelFailure;

/** Who hears a streamed response as it arrives. Callbacks must not throw. */
export interface StreamListeners {
  /** Each piece of streamed answer text. */
  onText?: (text: string) => void;
  /** Each piece of streamed reasoning (`reasoning_content`), for servers that send it. */
  onReasoning?: (text: string) => void;
}

/** Options for one completion. */
export interface CompleteOptions extends StreamListeners {
  signal: AbortSignal;
}

/** A chat model. Implementations must not throw; failures are {@link ModelFailure}. */
export interface ModelClient {
  complete(request: ModelRequest, options: CompleteOptions): Promise<ModelReply>;
}
