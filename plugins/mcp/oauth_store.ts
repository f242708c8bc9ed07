/**
 * Where hel keeps what an OAuth login to a remote MCP server gave it:
 * `$HEL_HOME/mcp-auth/<key>.json`, one file per server address. The key is made from the URL,
 * never the server's name: a project's `.hel/mcp.json` can name its entry after one of yours
 * and point it elsewhere, and must not get your token for that. The file holds the URL it is
 * for (checked on reading, too), the client registration and the tokens; it is written whole or
 * not at all (a temporary file renamed over it), mode 0600, in a folder of mode 0700, and never
 * read or written through a link (a planted `<key>.json -> ~/.ssh/...` is refused).
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/auth"
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { resolve } from "node:path";
import { concatBytes, lstatOrUndefined, sha256Hex, writeFileAtomic } from "../../kit/mod.ts";

/** What one login left. */
export interface StoredLogin {
  /** The server's address, as the entry gives it. */
  url: string;
  /** The client hel is at the authorization server (registered dynamically, or given). */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /**
   * The scope a run was refused for (a 403 `insufficient_scope`, or a token that no longer
   * does): the next `hel mcp login` asks for it (step-up).
   */
  wantedScope?: string;
  /** When the tokens were saved (ISO time), for `hel mcp list`. */
  savedAt?: string;
}

/** The folder of the login files. */
export function authFolder(helHome: string): string {
  return `${resolve(helHome)}/mcp-auth`;
}

/** The address as one string whatever way it is written (`HTTP://Host:80/mcp` = `http://host/mcp`). */
export function canonicalUrl(url: string): string {
  return new URL(url).href;
}

/** The login file of the server at `url`. */
export async function loginPath(helHome: string, url: string): Promise<string> {
  const key = (await sha256Hex(new TextEncoder().encode(canonicalUrl(url)))).slice(0, 32);
  return `${authFolder(helHome)}/${key}.json`;
}

/** A login file hel will not use (a link, not a plain file, not readable as its JSON). */
export class LoginFileError extends Error {
  override name = "LoginFileError";
}

/**
 * The login stored for `url`, or undefined when there is none. Throws a {@link LoginFileError}
 * for a link or anything else that is not hel's own plain file.
 */
export async function readLogin(helHome: string, url: string): Promise<StoredLogin | undefined> {
  const path = await loginPath(helHome, url);
  const folder = await lstatOrUndefined(authFolder(helHome));
  if (folder && !folder.isDirectory) throw refusal(authFolder(helHome), "folder");
  const before = await lstatOrUndefined(path);
  if (!before) return undefined;
  if (before.isSymlink || !before.isFile || before.nlink !== 1) throw refusal(path, "file");
  using file = await Deno.open(path, { read: true });
  const opened = await file.stat();
  // Swapped for another file (a link's target) between the check and the open: refused.
  if (opened.ino !== before.ino || opened.dev !== before.dev) throw refusal(path, "file");
  const text = new TextDecoder().decode(await readAll(file, 1024 * 1024));
  let stored: StoredLogin;
  try {
    stored = JSON.parse(text);
  } catch {
    throw new LoginFileError(
      `${path} is not valid JSON; remove it with hel mcp logout and log in again`,
    );
  }
  // A file copied from another server's login is not this server's.
  if (typeof stored?.url !== "string" || canonicalUrl(stored.url) !== canonicalUrl(url)) {
    throw new LoginFileError(
      `${path} holds a login for another address than ${url}; remove it with hel mcp logout`,
    );
  }
  return stored;
}

/** Replaces the login stored for `login.url` (atomic, 0600, never through a link). */
export async function writeLogin(helHome: string, login: StoredLogin): Promise<void> {
  const path = await loginPath(helHome, login.url);
  const text = JSON.stringify({ ...login, savedAt: new Date().toISOString() }, null, 2) + "\n";
  await writeFileAtomic(resolve(helHome), path, text, { mode: 0o600, folderMode: 0o700 });
}

/** Removes the login stored for `url` (a link there is removed, never what it points to). */
export async function removeLogin(helHome: string, url: string): Promise<boolean> {
  const path = await loginPath(helHome, url);
  try {
    await Deno.remove(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

function refusal(path: string, what: "file" | "folder"): LoginFileError {
  return new LoginFileError(
    `refused to read ${path}: it is not a plain ${what} of hel's (a symbolic link or something ` +
      "else was put there); hel never reads or writes logins through links. Remove it (check " +
      "what created it), then log in again with hel mcp login",
  );
}

async function readAll(file: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const read = await file.read(buffer);
    if (read === null) break;
    size += read;
    if (size > limit) throw new LoginFileError("the login file is larger than hel reads (1 MiB)");
    chunks.push(buffer.slice(0, read));
  }
  return concatBytes(chunks);
}
