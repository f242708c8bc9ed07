/**
 * The host a plugin's `setup` receives: the run's context plus the tool registry. It holds
 * registrations and no policy of its own.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import type { Host, PluginContext } from "../core/plugin.ts";
import type { AccessLevel, ChatMessage, Tool } from "../core/types.ts";
import type { FileReading } from "../core/file_reading.ts";
import { SECRET_ENV_NAMES } from "../kit/mod.ts";

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Everything a run's host is made of. */
export interface HostParts {
  context: PluginContext;
  session: Host["session"];
  access: AccessLevel;
  spill(text: string): Promise<string | undefined>;
  emit(event: HelEvent): void;
  conversation?(): readonly ChatMessage[];
}

/** A host plus the registry it fills, for the core's own use. */
export interface HostWithRegistry {
  host: Host;
  tools: Map<string, Tool>;
  /** How the model reads files hel points it at, once a plugin offered it. */
  reading(): FileReading | undefined;
}

/** Creates the host; `registerTool` refuses duplicate and malformed names. */
export function createHost(parts: HostParts): HostWithRegistry {
  const tools = new Map<string, Tool>();
  let reading: FileReading | undefined;
  const host: Host = {
    ...parts.context,
    session: parts.session,
    access: parts.access,
    spill: parts.spill,
    emit: parts.emit,
    ...(parts.conversation ? { conversation: parts.conversation } : {}),
    registerTool(tool) {
      if (!TOOL_NAME.test(tool.name)) {
        throw new TypeError(`Cannot register tool "${tool.name}": names use [a-zA-Z0-9_-], 1-64`);
      }
      if (tools.has(tool.name)) {
        throw new TypeError(`Cannot register tool "${tool.name}": the name is already registered`);
      }
      tools.set(tool.name, tool);
    },
    registeredToolNames: () => [...tools.keys()],
    offerFileReading(offered) {
      reading = offered;
    },
  };
  return { host, tools, reading: () => reading };
}

/** hel's environment without the model API keys. */
export function environmentWithoutSecrets(): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of SECRET_ENV_NAMES) delete env[name];
  return env;
}
