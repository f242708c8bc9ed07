/**
 * What hel takes from the process it runs in: environment variables, the working directory,
 * standard input and the two output streams. hel reads them through here, never through
 * `Deno.env`, `Deno.cwd()` or `Deno.std*` directly, so a test can run the whole command line
 * in its own process with its own surroundings (see `tests/_run.ts`), without spawning hel.
 *
 * Module state on purpose: like stdin and stdout themselves, there is one per process.
 *
 * @module
 */

/** One of the two output streams. */
export interface OutputStream {
  writeSync(bytes: Uint8Array): void;
  isTerminal(): boolean;
}

/** The process around hel. */
export interface Surroundings {
  /** An environment variable. */
  env(name: string): string | undefined;
  /** Every environment variable (what child processes inherit). */
  environment(): Record<string, string>;
  /** The working directory. */
  cwd(): string;
  stdin: {
    isTerminal(): boolean;
    readable(): ReadableStream<Uint8Array>;
    /** Raw mode on a terminal (the full-screen chat reads keys, not lines); absent elsewhere. */
    setRaw?(raw: boolean): void;
  };
  stdout: OutputStream;
  stderr: OutputStream;
}

/** The real process. */
export const processSurroundings: Surroundings = {
  env: (name) => Deno.env.get(name),
  environment: () => Deno.env.toObject(),
  cwd: () => Deno.cwd(),
  stdin: {
    isTerminal: () => Deno.stdin.isTerminal(),
    readable: () => Deno.stdin.readable,
    setRaw: (raw) => Deno.stdin.setRaw(raw),
  },
  stdout: Deno.stdout,
  stderr: Deno.stderr,
};

let current: Surroundings = processSurroundings;

/** The surroundings hel runs in now. */
export function surroundings(): Surroundings {
  return current;
}

/**
 * Runs hel in other surroundings until the returned function is called (tests only). One run
 * at a time: the surroundings are the process's.
 */
export function replaceSurroundings(replacement: Surroundings): () => void {
  const previous = current;
  current = replacement;
  return () => current = previous;
}
