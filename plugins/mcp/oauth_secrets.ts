/**
 * The secrets of a grant without a person (oauth_machine.ts), read when hel connects: from the
 * variables the entry names, or a private key from the file it names (`~/` is your home). A
 * variable that is not set, or a file hel cannot read, is said with the field and the fix; the
 * values themselves are never shown.
 *
 * @module
 */
import type { ServerConfig } from "./config.ts";
import type { MachineSecrets } from "./oauth_machine.ts";
import { fromCommandLine, OAUTH_FLAGS } from "./remote_flags.ts";

/** The largest private key file hel reads. */
const MAX_KEY_BYTES = 64 * 1024;

/** The secrets `config`'s `"oauth"` names, or what is missing. */
export async function machineSecrets(
  config: ServerConfig,
  env: Readonly<Record<string, string>>,
): Promise<MachineSecrets | string> {
  const settings = config.remote?.oauth ?? {};
  const secrets: MachineSecrets = {};
  const missing: string[] = [];
  // As the person gave it: a flag of `--url`, or a field of a file.
  const given = (field: string) =>
    fromCommandLine(config)
      ? OAUTH_FLAGS.find(([name]) => name === field)![1]
      : `"oauth.${field}" in ${config.file}`;
  const fromEnv = (field: keyof typeof settings, what: string): string | undefined => {
    const name = settings[field];
    if (typeof name !== "string") return undefined;
    const value = env[name];
    if (value === undefined || value === "") {
      missing.push(
        `${given(field)} names ${name}, which is not set in your ` +
          `environment; set it to ${what}`,
      );
    }
    return value;
  };
  secrets.clientSecret = fromEnv("clientSecretEnv", "the client secret");
  secrets.privateKey = fromEnv("privateKeyEnv", "the client's private key (PEM)");
  secrets.idToken = fromEnv("idTokenEnv", "your ID token from the identity provider");
  secrets.idpClientSecret = fromEnv("idpClientSecretEnv", "hel's secret at the identity provider");
  if (settings.privateKeyFile) {
    const key = await readKeyFile(settings.privateKeyFile, env);
    if (key.ok) secrets.privateKey = key.text;
    else missing.push(`${given("privateKeyFile")}: ${key.reason}`);
  }
  return missing.length > 0 ? missing.join("; ") : secrets;
}

async function readKeyFile(
  path: string,
  env: Readonly<Record<string, string>>,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const home = env.HOME ?? Deno.env.get("HOME");
  if (path.startsWith("~/") && !home) {
    return { ok: false, reason: `${path} starts with ~/ but HOME is not set; write the full path` };
  }
  const full = path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
  try {
    const info = await Deno.stat(full);
    if (!info.isFile) return { ok: false, reason: `${full} is not a file` };
    if (info.size > MAX_KEY_BYTES) {
      return { ok: false, reason: `${full} is larger than a private key (over 64 KiB)` };
    }
    return { ok: true, text: await Deno.readTextFile(full) };
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "there is no such file"
      : error instanceof Deno.errors.PermissionDenied
      ? "hel may not read it"
      : "it could not be read";
    return { ok: false, reason: `${full}: ${why}; point it at your PEM private key` };
  }
}
