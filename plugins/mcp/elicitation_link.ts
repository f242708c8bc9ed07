/**
 * The web address of a URL-mode elicitation as the person is shown it: the whole address, and
 * its host as a browser would reach it, on a line of its own, since a hostile server can dress
 * an address up as another site (`https://bank.example@evil.test/`, a look-alike internationalised
 * name, bidi or invisible characters, which the front ends show escaped). hel never opens it.
 *
 * @module
 */
import type { FormLink } from "../../core/mod.ts";

/** Characters of an address at most: it is shown whole, so it must fit a screen. */
export const MAX_URL = 2_000;

/** The link to show, or why it is refused. */
export type LinkOutcome = { ok: true; link: FormLink } | { ok: false; problem: string };

/** `url` as a link the person may open, with what could mislead about it. */
export function linkOf(url: string): LinkOutcome {
  if (url.length > MAX_URL) {
    return {
      ok: false,
      problem: `its address is ${url.length} characters long; hel shows addresses of at most ` +
        `${MAX_URL}, whole`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: "its address is not a valid URL" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return {
      ok: false,
      problem: `its address starts with ${parsed.protocol}, not https: or http:, and hel ` +
        "shows only web addresses",
    };
  }
  const warnings: string[] = [];
  if (parsed.username !== "" || parsed.password !== "") {
    warnings.push(
      "the address has a user name before @, which can make it read like another site: it " +
        "leads to the host above",
    );
  }
  if (parsed.hostname.split(".").some((label) => label.startsWith("xn--"))) {
    warnings.push(
      "the host is an internationalised name (xn--), which can imitate another site's name",
    );
  }
  if (parsed.protocol === "http:") {
    warnings.push("not https: what you send there travels unencrypted");
  }
  return { ok: true, link: { url, host: parsed.host, warnings } };
}
