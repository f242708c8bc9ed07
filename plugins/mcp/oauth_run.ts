/**
 * A run's side of OAuth: a remote server with a login stored by `hel mcp login` gets a provider
 * in "run" mode (oauth_provider.ts), which sends its token and lets the SDK refresh it; a server
 * without one gets none, so a 401 from it reads "needs login" (remote_transport.ts) and no
 * client is registered at its authorization server behind the person's back. A server whose
 * entry has a grant without a person (`"grant": "client_credentials"` or `"cross_app_access"`)
 * always gets one (oauth_machine.ts): hel fetches its token when the server asks for one.
 *
 * @module
 */
import { boundedFetch } from "./bounded_fetch.ts";
import type { ServerConfig } from "./config.ts";
import { MachineOAuthProvider } from "./oauth_machine.ts";
import { HelOAuthProvider } from "./oauth_provider.ts";
import { machineSecrets } from "./oauth_secrets.ts";
import { LoginFileError, readLogin, type StoredLogin } from "./oauth_store.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./message_size.ts";
import { fromCommandLine } from "./remote_flags.ts";

/** The provider for a run, none, or why the login file cannot be used. */
export type RunAuth =
  | { ok: true; provider?: HelOAuthProvider | MachineOAuthProvider }
  | { ok: false; reason: string };

/** The command that logs in to `config`'s server, as messages give it. */
export function loginCommand(config: ServerConfig): string {
  return fromCommandLine(config)
    ? `hel mcp login --url ${config.remote?.url ?? ""}`
    : `hel mcp login ${config.name}`;
}

/** Reads the stored login of a remote server for this run. */
export async function runAuth(
  helHome: string,
  config: ServerConfig,
  env: Readonly<Record<string, string>>,
): Promise<RunAuth> {
  const remote = config.remote;
  if (!remote) return { ok: true };
  let stored;
  try {
    stored = await readLogin(helHome, remote.url);
  } catch (error) {
    if (!(error instanceof LoginFileError)) throw error;
    return { ok: false, reason: `not connected: ${error.message}` };
  }
  if (isMachineGrant(config)) return await machineAuth(helHome, config, env, stored);
  if (!stored?.tokens) return { ok: true };
  const secretEnv = remote.oauth?.clientSecretEnv;
  return {
    ok: true,
    provider: new HelOAuthProvider({
      helHome,
      url: remote.url,
      settings: remote.oauth,
      clientSecret: secretEnv ? env[secretEnv] : undefined,
      stored,
      mode: "run",
      loginCommand: loginCommand(config),
    }),
  };
}

/** True for an entry whose token is got without a person (client credentials, cross-app). */
export function isMachineGrant(config: ServerConfig): boolean {
  const grant = config.remote?.oauth?.grant;
  return grant === "client_credentials" || grant === "cross_app_access";
}

/** The provider of a grant without a person, its secrets read now. */
export async function machineAuth(
  helHome: string,
  config: ServerConfig,
  env: Readonly<Record<string, string>>,
  stored: StoredLogin | undefined,
): Promise<{ ok: true; provider: MachineOAuthProvider } | { ok: false; reason: string }> {
  const settings = config.remote!.oauth!;
  const secrets = await machineSecrets(config, env);
  if (typeof secrets === "string") return { ok: false, reason: `not connected: ${secrets}` };
  return {
    ok: true,
    provider: new MachineOAuthProvider({
      helHome,
      url: config.remote!.url,
      settings: { ...settings, clientId: settings.clientId! },
      secrets,
      stored,
      fetchFn: boundedFetch(DEFAULT_MAX_MESSAGE_BYTES, () => {}),
    }),
  };
}
