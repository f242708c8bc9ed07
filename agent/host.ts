/**
 * The host a plugin's `setup` receives: the run's context plus the tool registry (the plugin
 * driver adds each plugin's own `onShutdown`). It holds no policy of its own.
 *
 * @module
 */
import type { HelEvent } from "../core/events.ts";
import type { PluginContext } from "../core/plugin.ts";
import type { RunHost } from "../core/plugin_driver.ts";
import type { ToolRegistry } from "../core/tool_registry.ts";
import type { AccessLevel, ChatMessage } from "../core/types.ts";
import type { FileReading } from "../core/file_reading.ts";

/** Everything a run's host is made of. */
export interface HostParts {
  context: PluginContext;
  session: RunHost["session"];
  access: AccessLevel;
  tools: ToolRegistry;
  spill(text: string): Promise<string | undefined>;
  emit(event: HelEvent): void;
  conversation?(): readonly ChatMessage[];
}

/** A host plus what plugins offered through it, for the run's own use. */
export interface HostWithOffers {
  host: RunHost;
  /** How the model reads files hel points it at, once a plugin offered it. */
  reading(): FileReading | undefined;
}

/** Creates the host; registrations go to the run's tool registry. */
export function createHost(parts: HostParts): HostWithOffers {
  let reading: FileReading | undefined;
  const host: RunHost = {
    ...parts.context,
    session: parts.session,
    access: parts.access,
    spill: parts.spill,
    emit: parts.emit,
    ...(parts.conversation ? { conversation: parts.conversation } : {}),
    registerTool: (tool) => parts.tools.register(tool),
    registeredToolNames: () => parts.tools.names(),
    offerFileReading(offered) {
      reading = offered;
    },
  };
  return { host, reading: () => reading };
}
