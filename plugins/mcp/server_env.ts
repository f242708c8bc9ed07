/**
 * The environment of an MCP server: a small base hel chooses, plus exactly what the server's
 * entry names in its `env`. Servers used to receive hel's whole environment, so every secret
 * in it (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, ...) reached every server; now a server gets
 * a secret only when its entry asks for it by name, where the trust review shows it.
 *
 * @module
 */
import { TOOLCHAIN_VARIABLES } from "../../kit/mod.ts";

/**
 * Variables every server receives when hel has them. None names a credential: where programs
 * are and how to run them (PATH, HOME, the user and shell), the locale and terminal, and the
 * settings launchers such as `npx` and `uvx` need to reach a registry at all: the folders of
 * toolchains, trusted certificate files, and proxies (a proxy URL can carry a password; one
 * that must not reach servers belongs in the entries that need it, not in hel's environment).
 */
export const BASE_VARIABLES = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "TMPDIR",
  "NO_COLOR",
  // Toolchain folders (CARGO_HOME, NVM_DIR, GOPATH, ...): where node, python, cargo live.
  ...TOOLCHAIN_VARIABLES,
  "NVM_BIN",
  "JAVA_HOME",
  // Which certificates to trust: a registry behind a TLS-inspecting proxy needs them.
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  // How to reach the network.
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
] as const;

/** True for a base variable: one of {@link BASE_VARIABLES} or a locale setting `LC_*`. */
function isBase(name: string): boolean {
  return (BASE_VARIABLES as readonly string[]).includes(name) || /^LC_[A-Z_]+$/.test(name);
}

/** The base environment taken from hel's environment for children (model API keys removed). */
export function baseEnvironment(
  childEnv: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(childEnv).filter(([name]) => isBase(name)));
}

/**
 * An `env` value that passes one of hel's variables on: `${NAME}`, or `${NAME:-default}` for a
 * default when hel has no such variable.
 */
const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}$/;

/** The variable an `env` value refers to, and its default, or undefined for a plain value. */
export function envReference(value: string): { name: string; fallback?: string } | undefined {
  const match = value.match(REFERENCE);
  if (!match) return undefined;
  return match[2] === undefined ? { name: match[1]! } : { name: match[1]!, fallback: match[2] };
}

/**
 * How an entry's variable is shown (trust review, `hel mcp list`): its name, and for a
 * reference the variable its value is taken from, `LOG_LEVEL (from GITHUB_TOKEN)`, so a
 * secret cannot travel under a harmless name (`GITHUB_TOKEN` from itself is just its name).
 * Never a value.
 */
export function shownEnvName(name: string, value: string): string {
  const reference = envReference(value);
  return reference && reference.name !== name ? `${name} (from ${reference.name})` : name;
}

/**
 * The entry's variables as {@link shownEnvName} shows them, references first: a list cut to
 * fit a screen ("+3 more") must not cut away the ones that pass hel's variables on.
 */
export function shownEnvNames(entry: Readonly<Record<string, string>>): string[] {
  const names = Object.entries(entry);
  const passed = names.filter(([, value]) => envReference(value));
  const plain = names.filter(([, value]) => !envReference(value));
  return [...passed, ...plain].map(([name, value]) => shownEnvName(name, value));
}

/** What a server's entry adds, resolved against hel's environment. */
export interface EntryEnvironment {
  /** The variables set for the server (values as they will be). */
  env: Record<string, string>;
  /** Names whose `${NAME}` reference found nothing in hel's environment (left unset). */
  unset: string[];
}

/**
 * The entry's `env` with references resolved against `childEnv` (which has no model API keys,
 * so `${HEL_API_KEY}` finds nothing).
 */
export function entryEnvironment(
  entry: Readonly<Record<string, string>>,
  childEnv: Readonly<Record<string, string>>,
): EntryEnvironment {
  const env: Record<string, string> = {};
  const unset: string[] = [];
  for (const [name, value] of Object.entries(entry)) {
    const reference = envReference(value);
    const resolved = reference ? childEnv[reference.name] ?? reference.fallback : value;
    if (resolved === undefined) unset.push(name);
    else env[name] = resolved;
  }
  return { env, unset };
}
