/**
 * The environment of every program the model can influence (commands, hooks, servers that use
 * the kit): hel's own, less anything whose name looks like a credential. Hiding `~/.aws` is
 * worth little when `AWS_SECRET_ACCESS_KEY` is in the environment; a prompt-injected command
 * would print it, or send it away when the network is on. Like Codex's
 * `shell_environment_policy`, the test is on the name, in any case; `--sandbox-env NAME`
 * passes one variable through on purpose.
 *
 * The parts: KEY, SECRET, TOKEN, PASSWORD and CREDENTIAL (as Codex, plus the last two), and
 * PASSWD and PASSPHRASE, spellings of the same thing. AUTH and PWD count only as whole words
 * of a name (parts between `_`): `DOCKER_AUTH_CONFIG` (registry logins), npm's
 * `NPM_CONFIG__AUTH`, `MYSQL_PWD` (the MySQL client's password) go, while `GIT_AUTHOR_NAME`,
 * `XAUTHORITY`, `PWD` and `OLDPWD` (the working directory) stay, and so does `SSH_AUTH_SOCK`
 * (a socket's path; the sandbox hides the socket anyway). Not PRIVATE (PRIVATE_KEY has KEY).
 *
 * @module
 */
import { UsageError } from "../../core/mod.ts";
import { SECRET_ENV_NAMES } from "../process/privacy.ts";

/** Name parts that mark a variable as a credential (matched in any case). */
export const SECRET_NAME_PARTS = [
  "KEY",
  "SECRET",
  "TOKEN",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "CREDENTIAL",
] as const;

/** Words that mark a credential only as a whole word of a longer name (see above). */
export const SECRET_NAME_WORDS = ["AUTH", "PWD"] as const;

/** Names that carry a word above but hold no credential. */
const NOT_SECRET = ["SSH_AUTH_SOCK"];

/** Whether a variable's name looks like it holds a credential. */
export function looksSecret(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_NAME_PARTS.some((part) => upper.includes(part))) return true;
  const words = upper.split("_");
  return words.length > 1 && !NOT_SECRET.includes(upper) &&
    SECRET_NAME_WORDS.some((word) => words.includes(word));
}

/**
 * `env` without the variables whose names look like credentials, except those in `pass`
 * (`--sandbox-env`). The model API keys are not in `env` to begin with (the host removed them).
 */
export function withoutSecrets(
  env: Readonly<Record<string, string>>,
  pass: readonly string[] = [],
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => pass.includes(name) || !looksSecret(name)),
  );
}

/** A portable environment variable name: a letter or `_`, then letters, digits and `_`. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `--sandbox-env` values: each a variable name, kept once. Not `NAME=value` (the value comes
 * from hel's environment), not the model API key.
 */
export function parseSandboxEnv(value: unknown): string[] {
  const given = Array.isArray(value) ? value.map(String) : [];
  const names: string[] = [];
  for (const name of given) {
    if (!VARIABLE_NAME.test(name)) {
      throw new UsageError(
        `--sandbox-env ${JSON.stringify(name)}: expected the name of a variable in hel's ` +
          "environment (letters, digits and _, not starting with a digit), such as " +
          "--sandbox-env GITHUB_TOKEN; its value is passed as it is set when hel starts",
      );
    }
    if ((SECRET_ENV_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--sandbox-env ${name}: the model API key never reaches the programs hel starts; ` +
          "leave the flag out",
      );
    }
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
