/**
 * Loading the project's hooks at start: read `.hel/hooks.json` once, validate it, then have
 * the user review it unless these exact bytes are already trusted. Only the bytes that were
 * validated and reviewed are used; nothing from the file runs before that.
 *
 * @module
 */
import type { Host } from "../../core/mod.ts";
import { readProjectConfig, reviewTrust, sha256Hex } from "../../kit/mod.ts";
import { HOOKS_TRACE, HOOKS_TRUST, type HooksConfig, parseHooksConfig } from "./config.ts";
import { summarizeHooks } from "./summary.ts";

/** Returns the trusted handlers, or undefined when hooks are absent or skipped for this run. */
export async function loadTrustedHooks(host: Host): Promise<HooksConfig | undefined> {
  const trace = (data: Record<string, unknown>) =>
    host.emit({ type: "trace", channel: HOOKS_TRACE, data });
  const skip = (status: string, message: string) => {
    trace({ status, message });
    host.emit({ type: "warning", text: message });
    return undefined;
  };

  const file = await readProjectConfig(host.project, "hooks.json");
  if (file.kind === "absent") {
    trace({ status: "absent", path: file.path });
    return undefined;
  }
  if (file.kind === "unusable") return skip("unusable", `${file.message}; hooks skipped`);

  const parsed = parseHooksConfig(file.bytes, file.path);
  if (!parsed.ok) {
    return skip(
      "invalid",
      `.hel/hooks.json is invalid, so hooks are skipped for this run:\n  ${
        parsed.problems.join("\n  ")
      }`,
    );
  }

  const summary = summarizeHooks(parsed.config);
  const outcome = await reviewTrust(host, HOOKS_TRUST, file.path, file.bytes, summary);
  if (outcome === "refused") {
    return skip("untrusted", `project hooks in ${file.path} were not trusted; hooks skipped`);
  }
  if (outcome === "no-terminal") {
    return skip(
      "untrusted",
      `project hooks in ${file.path} are not trusted and there is no terminal to ask; hooks ` +
        'skipped. Review them with "hel trust hooks", or in scripts pin the reviewed file ' +
        'with "hel trust hooks --sha256 HEX"',
    );
  }
  const { config } = parsed;
  trace({
    status: "trusted",
    path: file.path,
    project: host.project,
    sha256: await sha256Hex(file.bytes),
    handlers: config.PreToolUse.length + config.PostToolUse.length,
  });
  return config;
}
