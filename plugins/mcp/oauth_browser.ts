/**
 * Sending the person's browser to an authorization page for `hel mcp login`. The address is
 * always printed (escaped), so a login works over SSH or without a browser; then it is opened
 * with `HEL_BROWSER` when set (a command line, split on spaces, run without a shell, the
 * address as its last argument; tests use a script that fetches it and follows the redirect),
 * else, on a terminal only, with `xdg-open` (or `open` on macOS). hel does not wait for the
 * command: the login waits for the redirect instead.
 *
 * @module
 */
import { escapeControlCharacters, writeErr } from "../../kit/mod.ts";

/** Prints `url` and starts the browser command, if there is one. */
export function openAuthorizationPage(
  url: URL,
  env: Readonly<Record<string, string>>,
  interactive: boolean,
): void {
  const address = escapeControlCharacters(url.href);
  writeErr(
    `Open this address in your browser to log in (hel waits for it to come back):\n` +
      `  ${address}\n`,
  );
  const configured = (env.HEL_BROWSER ?? "").trim();
  const words = configured !== ""
    ? configured.split(/\s+/)
    : interactive
    ? [Deno.build.os === "darwin" ? "open" : "xdg-open"]
    : [];
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
    if (configured !== "") {
      writeErr(
        `hel: warning: could not run HEL_BROWSER (${escapeControlCharacters(words[0]!)}); ` +
          "open the address yourself\n",
      );
    }
    return;
  }
  child.unref();
  void child.status.then((status) => {
    if (!status.success && configured !== "") {
      writeErr(`hel: warning: HEL_BROWSER exited with ${status.code}\n`);
    }
  });
}
