/**
 * The model endpoint a lab's runs talk to: the lab's model and base URL, each overridable on
 * the command line, and the API key from `DEEPSEEK_API_KEY` or the repository's `.env`.
 * Any OpenAI-compatible server can stand in through `--base-url`.
 *
 * @module
 */
import { parse as parseDotenv } from "dotenv";
import type { Lab } from "./spec.ts";

/** Where and as whom the runs call the model. The key never goes into a file. */
export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** True when the command line replaced the lab's base URL or model. */
  overridden: boolean;
  /**
   * True when the server marked its answer as the scripted stand-in (the response header
   * `x-hel-scripted-model`): its runs measure hel's plumbing, not a model.
   */
  scripted: boolean;
}

/** Command-line overrides. */
export interface EndpointOverrides {
  baseUrl?: string;
  model?: string;
}

/** How {@link resolveEndpoint} may go about it. */
export interface ResolveOptions {
  /**
   * Only planning (`--dry-run`): a missing key is no error and the server is not asked
   * whether it is the scripted model.
   */
  planOnly?: boolean;
}

/** The header fixtures/scripted_model.ts puts on every answer. */
const SCRIPTED_MODEL_HEADER = "x-hel-scripted-model";
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Asks the endpoint (without the key: a stand-in needs none) whether it is the
 * scripted model. Any failure means no: the runs will then show what the server is.
 */
export async function isScriptedModel(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/$/, "")}/models`, {
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.headers.get(SCRIPTED_MODEL_HEADER) === "1";
  } catch {
    return false;
  }
}

/** A missing key or a bad override; raised before any run starts. */
export class EndpointError extends Error {}

/** Stands in for a key when `--base-url` points at a server that needs none. */
const NO_KEY = "none";

/** Reads `KEY` from the environment, else from `<repo>/.env`; undefined when neither has it. */
export async function readKey(repoRoot: string, name: string): Promise<string | undefined> {
  const fromEnv = Deno.env.get(name);
  if (fromEnv) return fromEnv;
  let text: string;
  try {
    text = await Deno.readTextFile(`${repoRoot}/.env`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new EndpointError(`cannot read ${repoRoot}/.env: ${(error as Error).message}`);
  }
  return parseDotenv(text)[name] || undefined;
}

/**
 * Resolves the endpoint. Without `--base-url` the lab's provider is used and its key is
 * required; with it, a missing key is allowed (local servers need none). Either server is asked
 * whether it is the scripted model (not when only planning).
 */
export async function resolveEndpoint(
  lab: Lab,
  repoRoot: string,
  overrides: EndpointOverrides,
  options: ResolveOptions = {},
): Promise<Endpoint> {
  if (overrides.baseUrl !== undefined && !URL.canParse(overrides.baseUrl)) {
    throw new EndpointError(
      `--base-url ${overrides.baseUrl}: not a URL; give the server's base, e.g. ` +
        "http://127.0.0.1:8080/v1",
    );
  }
  const key = await readKey(repoRoot, "DEEPSEEK_API_KEY");
  if (!key && overrides.baseUrl === undefined && !options.planOnly) {
    throw new EndpointError(
      `no model API key: lab ${lab.lab} calls ${lab.model.base_url} (${lab.model.provider}), ` +
        `which needs DEEPSEEK_API_KEY; set it in the environment or in ${repoRoot}/.env ` +
        "(DEEPSEEK_API_KEY=...), or point --base-url at another OpenAI-compatible server",
    );
  }
  return {
    baseUrl: overrides.baseUrl ?? lab.model.base_url,
    model: overrides.model ?? lab.model.id,
    apiKey: key || NO_KEY,
    overridden: overrides.baseUrl !== undefined || overrides.model !== undefined,
    // The lab's own endpoint is asked too: a lab may name a local stand-in, whose runs would
    // otherwise pass for measurements.
    scripted: !options.planOnly &&
      await isScriptedModel(overrides.baseUrl ?? lab.model.base_url),
  };
}
