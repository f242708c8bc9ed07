/**
 * Sending the person's browser to an authorization page for `hel mcp login`. The address is
 * always printed (escaped), so a login works over SSH or without a browser; then it is opened
 * with the browser command: `HEL_BROWSER` when set, else the `mcp.browser` setting of the
 * person's own settings file (a project's may not set it: settings parse.ts), else, on a
 * terminal only, `xdg-open` (or `open` on macOS). A command line is split on spaces and run
 * without a shell, the address as its last argument (tests use a script that fetches it and
 * follows the redirect). hel does not wait for the command: the login waits for the redirect.
 *
 * @module
 */
import { escapeControlCharacters, writeErr } from "../../kit/mod.ts";

/** The command that opens the page, and what chose it (for warnings). */
export interface BrowserCommand {
  words: string[];
  /** `HEL_BROWSER`, `the mcp.browser setting`, or undefined for the system's opener. */
  from?: string;
}

/** HEL_BROWSER, else the setting (`setting`: the parsed `mcpBrowser` flag), else the system's. */
export function browserCommand(
  env: Readonly<Record<string, string>>,
  setting: unknown,
  interactive: boolean,
): BrowserCommand {
  const variable = (env.HEL_BROWSER ?? "").trim();
  if (variable !== "") return { words: variable.split(/\s+/), from: "HEL_BROWSER" };
  const configured = typeof setting === "string" ? setting.trim() : "";
  if (configured !== "") return { words: configured.split(/\s+/), from: "the mcp.browser setting" };
  return { words: interactive ? [Deno.build.os === "darwin" ? "open" : "xdg-open"] : [] };
}

/**
 * Prints `url` and starts the browser command, if there is one. The authorization server chose
 * the address: one that is not a web page (`file:`, a scheme another program registered) is
 * refused before anything opens it, since xdg-open would hand it to whatever program claims it.
 */
export function openAuthorizationPage(
  url: URL,
  env: Readonly<Record<string, string>>,
  browser: BrowserCommand,
): void {
  const address = escapeControlCharacters(url.href);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(
      `the authorization server sent hel to ${escapeControlCharacters(url.protocol)} ` +
        "address, not a web page; hel opens only https or http ones (do not open it yourself: " +
        `the server or its authorization server is misconfigured or hostile): ${
          address.slice(0, 100)
        }`,
    );
  }
  writeErr(
    `Open this address in your browser to log in (hel waits for it to come back):\n` +
      `  ${address}\n`,
  );
  const { words, from } = browser;
  if (words.length === 0) return;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(words[0]!, {
      args: [...words.slice(1), url.href],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      env: { ...env },
      clearEnv: true,
    }).spawn();
  } catch {
    if (from) {
      writeErr(
        `hel: warning: could not run ${from} (${escapeControlCharacters(words[0]!)}); ` +
          "open the address yourself\n",
      );
    }
    return;
  }
  child.unref();
  void child.status.then((status) => {
    if (!status.success && from) {
      writeErr(
        `hel: warning: ${from} (${escapeControlCharacters(words[0]!)}) exited with ` +
          `${status.code}\n`,
      );
    }
  });
}
