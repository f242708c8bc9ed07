/**
 * What a project's `.hel/mcp.json` may not ask of the person's own credentials. The file is
 * repository content, trusted by one click on its bytes; that click must not become "sign in
 * with my keys wherever this repository says". So in a project entry:
 *
 * - a private key (`privateKeyFile`, `privateKeyEnv`) is refused: it proves who the person is
 *   to any server it signs for, and a file path can name any key on the machine;
 * - a secret from the environment goes only to a place the entry writes down and the review
 *   shows: `clientSecretEnv` needs `issuer` (the only authorization server hel presents the
 *   client to), and `idTokenEnv` / `idpClientSecretEnv` go to `idpTokenEndpoint` (required).
 *
 * The person's own `$HEL_HOME/mcp.json` may do all of these.
 *
 * @module
 */
import type { OAuthSettings } from "./oauth_config.ts";

const FIX = "put this entry in $HEL_HOME/mcp.json, your own file";

/** The field a project entry may not have as written, and why with the fix; or undefined. */
export function projectOAuthProblem(
  settings: OAuthSettings,
  here: string,
): { field: keyof OAuthSettings; message: string } | undefined {
  for (const field of ["privateKeyFile", "privateKeyEnv"] as const) {
    if (settings[field] === undefined) continue;
    return {
      field,
      message: `${here}.${field} is not allowed in a project's file: a private key of your ` +
        "machine signs in as you wherever the repository points it, and trusting the file " +
        `is not choosing that; ${FIX}`,
    };
  }
  if (settings.clientSecretEnv !== undefined && settings.issuer === undefined) {
    return {
      field: "clientSecretEnv",
      message: `${here}.clientSecretEnv needs ${here}.issuer in a project's file: without it ` +
        `the secret from ${settings.clientSecretEnv} would go to whichever authorization ` +
        'server the MCP server names; add "issuer" (the one authorization server the secret ' +
        `may go to, shown in the review), or ${FIX}`,
    };
  }
  return undefined;
}
