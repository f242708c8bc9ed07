/**
 * The hooks plugin: commands from the project's `.hel/hooks.json` that run before
 * (PreToolUse) and after (PostToolUse) tool calls, once the user has trusted exactly those
 * bytes, inside the sandbox unless a handler says `"sandbox": false` (launch.ts). PreToolUse runs before the permission decision and may block the call; PostToolUse
 * runs only after a successful call and may append feedback for the model.
 *
 * @module
 */
import type { Host, Plugin, PluginHooks } from "../../core/mod.ts";
import { HOOKS_TRACE, HOOKS_TRUST, parseHooksConfig } from "./config.ts";
import { type DispatchDeps, runPostToolUse, runPreToolUse } from "./dispatch.ts";
import { guardHookFiles } from "./file_pins.ts";
import { loadTrustedHooks } from "./load.ts";
import { createCommandRunner } from "./runner.ts";
import { summarizeHooks } from "./summary.ts";
import { createLauncher, runsUnsandboxed } from "./launch.ts";
import { createSandbox, SANDBOX_OPTIONS, sandboxSettingsFor } from "../../kit/mod.ts";

/** Creates the plugin. */
export default function hooks(): Plugin {
  return {
    name: "hooks",
    description: "project hooks: trusted commands from .hel/hooks.json around tool calls",
    hooks: ["beforeToolCall", "afterToolCall", "shutdown"],
    // Hooks run in the kit's sandbox, so its flags apply even with --without tools.
    options: [...SANDBOX_OPTIONS],
    trustedConfigs: [HOOKS_TRUST],
    traceChannels: [HOOKS_TRACE],
    checkConfig(kind, bytes, path) {
      if (kind !== HOOKS_TRUST.kind) return undefined;
      const parsed = parseHooksConfig(bytes, path);
      return parsed.ok ? undefined : parsed.problems.join("\n  ");
    },
    summarizeConfig(kind, bytes, path) {
      if (kind !== HOOKS_TRUST.kind) return undefined;
      const parsed = parseHooksConfig(bytes, path);
      return parsed.ok ? summarizeHooks(parsed.config) : undefined;
    },
    async setup(host: Host): Promise<PluginHooks | void> {
      const config = await loadTrustedHooks(host);
      if (!config) return;
      const runner = createCommandRunner();
      host.onShutdown(() => runner.stopAll());
      const settings = await sandboxSettingsFor(host);
      const sandbox = createSandbox(
        settings,
        (problem) => host.log.warn(`sandbox unavailable: ${problem}`),
      );
      const handlers = [...config.PreToolUse, ...config.PostToolUse];
      // Only what runs outside the sandbox needs its scripts pinned.
      const outside = handlers.filter((handler) => runsUnsandboxed(handler, settings.enabled));
      const exposed = outside.length > 0 ? await guardHookFiles(host, outside) : undefined;
      const deps: DispatchDeps = {
        ...(exposed ? { exposed } : {}),
        project: host.project,
        // Read when a hook runs: the chat can switch the run to another session.
        get sessionId() {
          return host.session.id;
        },
        launch: createLauncher(sandbox, settings.enabled, host.project, host.childEnv, {
          ...settings.env.HOME ? { home: settings.env.HOME } : {},
          ...settings.helHomeAnywhere ? { helHome: settings.helHomeAnywhere } : {},
        }),
        afterRun: () => sandbox.afterRun(),
        runner,
        emit: host.emit,
        spill: host.spill,
      };
      return {
        ...config.PreToolUse.length > 0
          ? { beforeToolCall: (call) => runPreToolUse(config.PreToolUse, call, deps) }
          : {},
        ...config.PostToolUse.length > 0
          ? {
            afterToolCall: (call, result) => runPostToolUse(config.PostToolUse, call, result, deps),
          }
          : {},
      };
    },
  };
}
