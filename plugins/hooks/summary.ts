/**
 * What a parsed `.hel/hooks.json` runs, for the trust review: each handler's shell command,
 * when it runs, and whether it runs in the sandbox.
 *
 * @module
 */
import type { TrustEntry, TrustSummary } from "../../core/mod.ts";
import { HOOK_EVENTS, type HookHandler, type HooksConfig } from "./config.ts";

/** The handlers of `config` in the order they run around a call. */
export function summarizeHooks(config: HooksConfig): TrustSummary {
  return {
    noun: { one: "hook", many: "hooks" },
    entries: HOOK_EVENTS.flatMap((event) => config[event].map(entry)),
  };
}

function entry(handler: HookHandler): TrustEntry {
  const tools = handler.pattern === undefined
    ? "every tool"
    : `tools matching ${JSON.stringify(handler.matcher)}`;
  return {
    label: `${handler.event} hook ${handler.index + 1}`,
    details: `(for ${tools}${handler.onError === "block" ? ", blocks on failure" : ""})`,
    command: handler.command,
    shell: true,
    envNames: [],
    // An entry may opt out of the sandbox with "sandbox": false; absent means it is sandboxed.
    sandbox: handler.sandbox,
  };
}
