/**
 * `hel mcp login NAME` (or `--url URL`) and `hel mcp logout`: the MCP authorization flow
 * through the SDK's `auth()` (discovery, dynamic client registration or the entry's client,
 * PKCE, scopes), the browser sent to the authorization page (oauth_browser.ts), the code taken
 * from a loopback redirect (oauth_callback.ts), and the tokens stored for the server's address
 * (oauth_store.ts). The server comes from the files as a run would take it (the project's only
 * once trusted), or from `--url`, which the person typed.
 *
 * @module
 */
import { errorMessage, type PluginContext } from "../../core/mod.ts";
import { escapeControlCharacters, writeErr, writeOut } from "../../kit/mod.ts";
import { boundedFetch } from "./bounded_fetch.ts";
import { configuredServer } from "./call_command.ts";
import type { ServerConfig } from "./config.ts";
import { browserCommand, openAuthorizationPage } from "./oauth_browser.ts";
import { joinScopes, probeChallenge } from "./oauth_challenge.ts";
import { listenForCallback } from "./oauth_callback.ts";
import { HelOAuthProvider } from "./oauth_provider.ts";
import { isMachineGrant, machineAuth } from "./oauth_run.ts";
import { failureText } from "./remote_refusal.ts";
import {
  LoginFileError,
  loginPath,
  readLogin,
  removeLogin,
  type StoredLogin,
} from "./oauth_store.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./message_size.ts";

/** How long a login waits for the browser to come back. */
const LOGIN_WAIT_MS = 5 * 60_000;

const fail = (command: string, text: string, code: number) => {
  writeErr(`hel mcp ${command}: ${escapeControlCharacters(text)}\n`);
  return code;
};

/** The remote server to log in to or out of, or the exit code of why there is none. */
async function remoteServer(
  command: string,
  name: string | undefined,
  given: ServerConfig | undefined,
  context: PluginContext,
): Promise<ServerConfig | number> {
  const config = given ?? await configuredServer(name ?? "", context);
  if (typeof config === "string") return fail(command, config, 2);
  if (!config.remote) {
    return fail(
      command,
      `MCP server ${config.name} is started by hel (stdio), not reached over HTTP, so there ` +
        'is nothing to log in to; OAuth is for servers with a "url"',
      2,
    );
  }
  return config;
}

/** What an earlier login stored for `url`, or the exit code once a broken file is reported. */
async function storedLogin(
  helHome: string,
  url: string,
): Promise<StoredLogin | undefined | number> {
  try {
    return await readLogin(helHome, url);
  } catch (error) {
    if (error instanceof LoginFileError) return fail("login", error.message, 1);
    throw error;
  }
}

/**
 * The SDK's `auth()` (loaded only for a login), a fetch bounded like a server's messages, and
 * what the server's refusal names: its resource metadata and the scope it asks for.
 */
async function startAuth(url: string) {
  const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const fetchFn = boundedFetch(DEFAULT_MAX_MESSAGE_BYTES, () => {});
  return { auth, fetchFn, challenge: await probeChallenge(url, fetchFn) };
}

/** Runs `hel mcp login`; returns the exit code. */
export async function login(
  name: string | undefined,
  given: ServerConfig | undefined,
  context: PluginContext,
): Promise<number> {
  const config = await remoteServer("login", name, given, context);
  if (typeof config === "number") return config;
  const remote = config.remote!;
  const env = context.childEnv();
  if (isMachineGrant(config)) return await fetchMachineToken(config, context);
  const settings = remote.oauth;
  const secretEnv = settings?.clientSecretEnv;
  if (secretEnv && !env[secretEnv]) {
    return fail(
      "login",
      `${config.name}'s "oauth.clientSecretEnv" in ${config.file} names ${secretEnv}, which is ` +
        "not set in your environment; set it and run hel mcp login again",
      1,
    );
  }
  const stored = await storedLogin(context.helHome, remote.url);
  if (typeof stored === "number") return stored;
  let callback;
  try {
    callback = listenForCallback(settings?.callbackPort ?? 0);
  } catch (error) {
    return fail(
      "login",
      `could not listen on 127.0.0.1:${settings?.callbackPort} for the redirect: ` +
        `${errorMessage(error)}; free that port or change "oauth.callbackPort"`,
      1,
    );
  }
  // A registration made for this address before is used again; its tokens are not.
  const provider = new HelOAuthProvider({
    helHome: context.helHome,
    url: remote.url,
    settings,
    clientSecret: secretEnv ? env[secretEnv] : undefined,
    stored: stored ? { url: stored.url, client: stored.client } : undefined,
    mode: "login",
    redirectUrl: callback.url,
    openAuthorization: (url) =>
      Promise.resolve(openAuthorizationPage(
        url,
        env,
        browserCommand(env, context.flags.mcpBrowser, context.interactive),
      )),
  });
  writeErr(`Logging in to MCP server ${config.name} (${escapeControlCharacters(remote.url)})\n`);
  // Where the server points, and the scope it asks for (with one a run was refused for).
  const { auth, fetchFn, challenge } = await startAuth(remote.url);
  const options = {
    serverUrl: remote.url,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope: settings?.scopes?.join(" ") ?? joinScopes(challenge.scope, stored?.wantedScope),
    fetchFn,
  };
  try {
    // Started first: a browser command may come back before auth() has returned.
    const answer = callback.result(() => provider.sentState, LOGIN_WAIT_MS);
    const first = await auth(provider, options);
    if (first !== "AUTHORIZED") {
      const result = await answer;
      if (!result.ok) return fail("login", `${config.name}: ${result.reason}`, 1);
      const second = await auth(provider, { ...options, authorizationCode: result.code });
      if (second !== "AUTHORIZED") {
        return fail("login", `${config.name}: the authorization server gave no tokens`, 1);
      }
    }
  } catch (error) {
    // The authorization server wrote the message: one bounded line (failureText).
    return fail("login", `${config.name}: the login failed: ${failureText(error)}`, 1);
  } finally {
    await callback.close();
  }
  writeOut(
    `Logged in to ${config.name}; its tokens are in ${await loginPath(
      context.helHome,
      remote.url,
    )} (mode 0600). Remove them with: hel mcp logout ${
      given ? `--url ${remote.url}` : config.name
    }\n`,
  );
  return 0;
}

/**
 * `hel mcp login` for a grant without a person: no browser, the token is fetched now (a run
 * would fetch it when it connects), which shows at once whether the credentials work.
 */
async function fetchMachineToken(config: ServerConfig, context: PluginContext): Promise<number> {
  const remote = config.remote!;
  const stored = await storedLogin(context.helHome, remote.url);
  if (typeof stored === "number") return stored;
  const made = await machineAuth(context.helHome, config, context.childEnv(), stored);
  if (!made.ok) return fail("login", `${config.name}: ${made.reason}`, 1);
  const { auth, fetchFn, challenge } = await startAuth(remote.url);
  try {
    const result = await auth(made.provider, {
      serverUrl: remote.url,
      resourceMetadataUrl: challenge.resourceMetadataUrl,
      scope: remote.oauth?.scopes?.join(" ") ?? challenge.scope,
      fetchFn,
    });
    if (result !== "AUTHORIZED") throw new Error("the authorization server gave no token");
  } catch (error) {
    return fail("login", `${config.name}: getting a token failed: ${failureText(error)}`, 1);
  }
  writeOut(
    `Got a token for ${config.name} ("grant": "${remote.oauth?.grant}", no browser needed; ` +
      `runs fetch a new one by themselves). It is in ${await loginPath(
        context.helHome,
        remote.url,
      )} (mode 0600).\n`,
  );
  return 0;
}

/** Runs `hel mcp logout`; returns the exit code. */
export async function logout(
  name: string | undefined,
  given: ServerConfig | undefined,
  context: PluginContext,
): Promise<number> {
  const config = await remoteServer("logout", name, given, context);
  if (typeof config === "number") return config;
  const removed = await removeLogin(context.helHome, config.remote!.url);
  writeOut(
    removed
      ? `Logged out of ${config.name}: its tokens were removed.\n`
      : `hel had no login for ${config.name} (${escapeControlCharacters(config.remote!.url)}).\n`,
  );
  return 0;
}
