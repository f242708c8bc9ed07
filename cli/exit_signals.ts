/**
 * SIGTERM and SIGHUP: without a handler they end hel at once, leaving what plugins started
 * (MCP servers, hook commands — each in a process group of its own) running. hel cleans up
 * first and then exits with the conventional code; a second signal exits at once.
 *
 * @module
 */

const EXIT_CODES = { SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Installs the handlers; `cleanup` must finish promptly (it is given 10 s). Returns a function
 * that removes them.
 */
export function exitCleanlyOnTermination(cleanup: () => Promise<void>): () => void {
  if (Deno.build.os === "windows") return () => {};
  let exiting = false;
  const handlers = Object.entries(EXIT_CODES).map(([signal, code]) => {
    const handler = () => {
      if (exiting) Deno.exit(code);
      exiting = true;
      const bound = new Promise((resolve) => setTimeout(resolve, 10_000));
      void Promise.race([cleanup().catch(() => {}), bound]).finally(() => Deno.exit(code));
    };
    Deno.addSignalListener(signal as Deno.Signal, handler);
    return [signal as Deno.Signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  };
}
