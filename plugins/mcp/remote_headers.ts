/**
 * The headers hel sends a remote server, their values read from the person's environment (the
 * one hel gives child processes, which never holds the model API keys) by the names the entry
 * gives. A missing variable stops the connection with a message naming it: sending a request
 * without its credential would only earn an unclear 401.
 *
 * @module
 */
import type { RemoteServer } from "./remote_config.ts";

/** The headers to send, or why they cannot be made. */
export type RemoteHeaders =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; reason: string };

/** The variables the entry reads (never their values), and which of them are not set. */
export function headerVariables(
  remote: RemoteServer,
  env: Readonly<Record<string, string>>,
): { names: string[]; unset: string[] } {
  const names = [
    ...remote.bearerTokenEnv ? [remote.bearerTokenEnv] : [],
    ...Object.values(remote.headers).flatMap((source) => "env" in source ? [source.env] : []),
  ];
  return { names, unset: names.filter((name) => !(name in env) || env[name] === "") };
}

/** True when `headers` name an `Authorization` header (in any case). */
export function namesAuthorization(headers: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}

/** True when the entry sends its own `Authorization`, so hel neither logs in nor says to. */
export function sendsOwnAuthorization(
  remote: Pick<RemoteServer, "bearerTokenEnv" | "headers">,
): boolean {
  return remote.bearerTokenEnv !== undefined || namesAuthorization(remote.headers);
}

/** Resolves the entry's headers against `env`; `file` is named in the fix. */
export function remoteHeaders(
  remote: RemoteServer,
  env: Readonly<Record<string, string>>,
  file: string,
): RemoteHeaders {
  const { unset } = headerVariables(remote, env);
  if (unset.length > 0) {
    return {
      ok: false,
      reason: `not connected: it needs ${unset.join(" and ")} from your environment (see ` +
        `its entry in ${file}), and ${unset.length === 1 ? "that is" : "they are"} not set; ` +
        "set it and start hel again (model API keys are never sent to MCP servers)",
    };
  }
  const headers: Record<string, string> = {};
  for (const [name, source] of Object.entries(remote.headers)) {
    headers[name] = "env" in source ? env[source.env]! : source.value;
  }
  if (remote.bearerTokenEnv) headers["Authorization"] = `Bearer ${env[remote.bearerTokenEnv]}`;
  const broken = Object.entries(headers).find(([, value]) => /[\r\n\0]/.test(value));
  if (broken) {
    return {
      ok: false,
      reason: `not connected: the value for its ${broken[0]} header has a line break in it, ` +
        "which no header may have; check the variable it comes from",
    };
  }
  return { ok: true, headers };
}
