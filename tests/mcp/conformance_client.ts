/**
 * The client command the MCP conformance suite runs (tests/mcp/conformance_test.ts): the suite
 * starts a scenario's server, then runs this with the server's URL as the last argument and the
 * scenario's name in `MCP_CONFORMANCE_SCENARIO`. Each scenario becomes what a person would type:
 * `hel mcp list --url URL` or `hel mcp call --url URL TOOL JSON` (a server given on the command
 * line: no file, no trust question). The elicitation scenario runs hel on a pseudo-terminal
 * (`script`) and presses Enter at each field, which keeps the default the form shows, then `y`
 * to send: what a person accepting the defaults does. hel's exit status and output are passed
 * on, so the suite sees what hel did.
 *
 * `deno run -A tests/mcp/conformance_client.ts URL`, with HEL_HOME set by the caller (and
 * HEL_CONFORMANCE_EXITS, a folder where hel's exit status is written under the scenario's name).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { MAIN_TS } from "../_helpers.ts";

/** What hel is asked to do in each scenario: its arguments after `hel`, given the URL. */
type Plan = (url: string) => string[];

const list: Plan = (url) => ["mcp", "list", "--url", url];
const call = (tool: string, json: string): Plan => (url) => [
  "mcp",
  "call",
  "--url",
  url,
  tool,
  json,
];

/**
 * Every auth scenario's server offers `test-tool` behind OAuth; the suite's own client connects,
 * lists and calls it. hel logs in first when the grant wants a browser (`hel mcp login --url`,
 * the browser a script that follows the redirects: {@link BROWSER}), then calls it, as a person
 * would; with a grant without a person, it only calls it.
 */
const AUTH = call("test-tool", "{}");

/** The scripted browser `hel mcp login` opens (HEL_BROWSER): it fetches and follows redirects. */
const BROWSER = [Deno.execPath(), "run", "--allow-net", "--no-check", "--quiet"]
  .concat(fileURLToPath(new URL("../../fixtures/mcp/oauth_browser.ts", import.meta.url))).join(" ");

/** The scenarios of the pinned suite and what hel does in each. */
const PLANS: Record<string, Plan> = {
  initialize: list,
  tools_call: call("add_numbers", '{"a": 2, "b": 3}'),
  "sse-retry": call("test_reconnection", "{}"),
  "elicitation-sep1034-client-defaults": call("test_client_elicitation_defaults", "{}"),
};

/** hel's question after a form: the answer read back. */
const REVIEW = "Send it? [y]es / [e]dit / [n]o, decline / [c]ancel: ";

/** The scenario that asks a question, answered on a terminal. */
const ASKS = "elicitation-sep1034-client-defaults";

function helWords(args: string[]): string[] {
  return [Deno.execPath(), "run", "--allow-all", "--no-check", MAIN_TS, ...args];
}

/** Runs hel with its output passed through; resolves to its exit status and its stderr. */
async function runHel(
  args: string[],
  env?: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const [command, ...rest] = helWords(args);
  const child = new Deno.Command(command!, { args: rest, stdin: "null", stderr: "piped", env })
    .spawn();
  const decoder = new TextDecoder();
  let stderr = "";
  for await (const chunk of child.stderr) {
    await Deno.stderr.write(chunk);
    stderr += decoder.decode(chunk, { stream: true });
  }
  return { code: (await child.status).code, stderr };
}

/** The client ID metadata document the suite's CIMD scenario expects (it is not fetched). */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

/**
 * What a person would give hel for the scenario's client, read from `MCP_CONFORMANCE_CONTEXT`
 * (only this test client reads it; hel takes flags, like any person): a client registered
 * beforehand (`--client-id`, its secret by variable name), a grant without a browser
 * (client credentials with a secret or a private key; cross-app access with an ID token from
 * the suite's identity provider), or, with none, hel's client ID metadata document. Secrets go
 * into `env` under a name, and only the name is on the command line. `login`: whether a person
 * runs `hel mcp login` first (a browser login); the other grants need none.
 */
function clientFlags(env: Record<string, string>): { flags: string[]; login: boolean } {
  const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}");
  const secret = (name: string, value: unknown, flag: string): string[] => {
    if (typeof value !== "string") return [];
    env[name] = value;
    return [flag, name];
  };
  if (typeof context.client_id !== "string") {
    return { flags: ["--client-metadata-url", CIMD_URL], login: true };
  }
  const client = ["--client-id", context.client_id];
  if (typeof context.idp_id_token === "string") {
    return {
      flags: [
        ...["--grant", "cross_app_access", ...client],
        ...secret("CONFORMANCE_CLIENT_SECRET", context.client_secret, "--client-secret-env"),
        ...secret("CONFORMANCE_ID_TOKEN", context.idp_id_token, "--id-token-env"),
        ...["--idp-token-endpoint", context.idp_token_endpoint],
        ...["--idp-client-id", context.idp_client_id],
      ],
      login: false,
    };
  }
  if (typeof context.private_key_pem === "string") {
    return {
      flags: [
        ...["--grant", "client_credentials", ...client],
        ...secret("CONFORMANCE_PRIVATE_KEY", context.private_key_pem, "--private-key-env"),
        ...["--signing-algorithm", context.signing_algorithm ?? "ES256"],
      ],
      login: false,
    };
  }
  const flags = [
    ...client,
    ...secret("CONFORMANCE_CLIENT_SECRET", context.client_secret, "--client-secret-env"),
  ];
  return context.name === "auth/client-credentials-basic"
    ? { flags: ["--grant", "client_credentials", ...flags], login: false }
    : { flags, login: true };
}

/** The most logins one auth scenario gets: a person logs in again when hel says so, not forever. */
const MAX_LOGINS = 3;

/**
 * An auth scenario, with a HEL_HOME of its own (so no login of another scenario is used): with a
 * grant without a person, only the call; else `hel mcp login --url URL` with the scripted
 * browser, then the call, and when hel says the call needs a login again (a 403 asking for more
 * scope: step-up), log in again and call again, as a person would, {@link MAX_LOGINS} logins at
 * most.
 */
async function runHelLoggedIn(url: string): Promise<number> {
  const home = await Deno.makeTempDir({ prefix: "hel-conformance-auth-" });
  const env: Record<string, string> = { HEL_HOME: home, HEL_BROWSER: BROWSER };
  const { flags: client, login: browser } = clientFlags(env);
  try {
    // A grant without a browser: the call fetches the token itself.
    if (!browser) return (await runHel([...AUTH(url), ...client], env)).code;
    for (let logins = 1;; logins++) {
      const login = await runHel(["mcp", "login", "--url", url, ...client], env);
      if (login.code !== 0) return login.code;
      const called = await runHel([...AUTH(url), ...client], env);
      const again = /run hel mcp login --url/.test(called.stderr);
      if (called.code === 0 || !again || logins === MAX_LOGINS) return called.code;
    }
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

/**
 * Runs hel on a pseudo-terminal and answers its form: Enter at every field prompt (the value in
 * brackets, the default, is kept), `y` at "Send it?". Anything else hel shows is passed on.
 */
async function runHelAnswering(args: string[]): Promise<number> {
  const line = "exec " + helWords(args).map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qfec", line, "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let seen = "";
  const answered = { fields: 0, reviews: 0 };
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    seen += decoder.decode(chunk, { stream: true });
    // Colours and cursor codes hel writes even with NO_COLOR (the cursor shown at a prompt).
    // deno-lint-ignore no-control-regex
    const text = seen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
    // A field's prompt is a line of its own: two spaces, the value kept by Enter in brackets, ">".
    const fields = text.match(/^ {2}(?:\[[^\]\n]*\] )?> /gm)?.length ?? 0;
    const reviews = text.split(REVIEW).length - 1;
    for (; answered.fields < fields; answered.fields++) await writer.write(encoder.encode("\r"));
    for (; answered.reviews < reviews; answered.reviews++) {
      await writer.write(encoder.encode("y\r"));
    }
  }
  await writer.close().catch(() => {});
  return (await child.status).code;
}

const url = Deno.args.at(-1);
const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
const plan = PLANS[scenario] ?? (scenario.startsWith("auth/") ? AUTH : undefined);
if (url === undefined || plan === undefined) {
  console.error(
    `conformance_client: no plan for scenario "${scenario}" (URL ${url}): ` +
      "add it to PLANS in tests/mcp/conformance_client.ts",
  );
  Deno.exit(2);
}
const code = scenario === ASKS
  ? await runHelAnswering(plan(url))
  : scenario.startsWith("auth/")
  ? await runHelLoggedIn(url)
  : (await runHel(plan(url))).code;
// The suite runs its scenarios at once (`--suite all`) and judges them by their checks alone;
// the test also wants hel's exit status per scenario, so it is left where the test reads it.
const exits = Deno.env.get("HEL_CONFORMANCE_EXITS");
if (exits) await Deno.writeTextFile(`${exits}/${encodeURIComponent(scenario)}`, String(code));
Deno.exit(code);
