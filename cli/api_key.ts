/**
 * The model API key: from the variable the `apiKeyEnv` setting names, else `HEL_API_KEY` or
 * `DEEPSEEK_API_KEY`. A model server on this machine (a loopback base URL) needs none: without
 * a key the requests carry no `Authorization` header at all.
 *
 * @module
 */
import { UsageError } from "../core/usage_error.ts";
import { surroundings } from "../kit/surroundings.ts";

/** True when `url`'s host is this machine: `localhost`, 127.0.0.0/8 or `::1`. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host === "localhost." || host === "[::1]") return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255);
}

/**
 * The key for `flags.baseUrl`, or undefined for a loopback server when none is set. No key for
 * any other server is a usage error naming the variable to set.
 */
export function apiKey(flags: { baseUrl: string; apiKeyEnv?: unknown }): string | undefined {
  const env = (name: string) => surroundings().env(name) || undefined;
  const chosen = typeof flags.apiKeyEnv === "string" ? flags.apiKeyEnv : undefined;
  const key = chosen ? env(chosen) : env("HEL_API_KEY") ?? env("DEEPSEEK_API_KEY");
  if (key !== undefined || isLoopbackUrl(flags.baseUrl)) return key;
  throw new UsageError(
    chosen
      ? `no model API key: the apiKeyEnv setting names ${chosen}, which is not set; set ` +
        `${chosen}, or change apiKeyEnv (hel config get apiKeyEnv shows where it is set)`
      : "no model API key: set HEL_API_KEY or DEEPSEEK_API_KEY (for another OpenAI-compatible " +
        "server, put its key in HEL_API_KEY and pass --base-url, or name its variable in the " +
        "apiKeyEnv setting)",
  );
}

/** The variable `key` came from, for the message when the server refuses it. */
export function apiKeyVariable(
  key: string | undefined,
  flags: { apiKeyEnv?: unknown },
): string | undefined {
  if (!key) return undefined;
  const named = typeof flags.apiKeyEnv === "string" ? [flags.apiKeyEnv] : [];
  return [...named, "HEL_API_KEY", "DEEPSEEK_API_KEY"].find((name) =>
    surroundings().env(name) === key
  ) ?? "HEL_API_KEY";
}
