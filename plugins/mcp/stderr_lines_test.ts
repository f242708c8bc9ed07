import assert from "node:assert/strict";
import { stderrEnding } from "./stderr_lines.ts";

// Written by node v20.20.2 for fixtures/mcp/node_fault_server.mjs --throw.
const NODE_THROW = `notes-mcp 1.4.0 starting (stdio)
file:///srv/notes/server.mjs:16
  const error = new Error("cannot open the notes index", { cause });
                ^

Error: cannot open the notes index
    at file:///srv/notes/server.mjs:16:17
    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)
    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5) {
  code: 'E_INDEX',
  [cause]: Error: ENOENT: no such file or directory, open '/data/notes/index.db'
      at file:///srv/notes/server.mjs:12:3
      at ModuleJob.run (node:internal/modules/esm/module_job:325:25) {
    code: 'ENOENT',
    errno: -2
  }
}

Node.js v20.20.2
`;

Deno.test("Node's code frame, stack, error properties and version trailer are skipped", () => {
  assert.deepEqual(stderrEnding(NODE_THROW), [
    "notes-mcp 1.4.0 starting (stdio)",
    "Error: cannot open the notes index",
    "[cause]: Error: ENOENT: no such file or directory, open '/data/notes/index.db'",
  ]);
  const missing = `node:internal/modules/esm/resolve:873
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/notes/server.mjs
    at packageResolve (node:internal/modules/esm/resolve:873:9)
    at #cachedDefaultResolve (node:internal/modules/esm/loader:657:25) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v20.20.2
`;
  assert.deepEqual(stderrEnding(missing), [
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/notes/server.mjs",
  ]);
  const required = `node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module 'zod'
Require stack:
- /srv/notes/server.cjs
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Object.<anonymous> (/srv/notes/server.cjs:1:1) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/srv/notes/server.cjs' ]
}

Node.js v20.20.2
`;
  assert.deepEqual(stderrEnding(required), ["Error: Cannot find module 'zod'"]);
});

Deno.test("Python's traceback framing is skipped, also boxed in an exception group", () => {
  const plain = `server v1 starting
Traceback (most recent call last):
  File "/srv/m.py", line 3, in <module>
    import mcp_missing_pkg
ModuleNotFoundError: No module named 'mcp_missing_pkg'
`;
  assert.deepEqual(stderrEnding(plain), [
    "server v1 starting",
    "ModuleNotFoundError: No module named 'mcp_missing_pkg'",
  ]);
  // Written by python 3.11 for an error in an asyncio TaskGroup, as MCP's Python SDK runs one.
  const group = `  + Exception Group Traceback (most recent call last):
  |   File "/srv/g.py", line 7, in <module>
  |     asyncio.run(main())
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 190, in run
  |     return runner.run(main)
  |            ^^^^^^^^^^^^^^^^
  |   File "/usr/lib/python3.11/asyncio/taskgroups.py", line 145, in __aexit__
  |     raise me from None
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/srv/g.py", line 6, in boom
    |     raise RuntimeError("no database at /data/db")
    | RuntimeError: no database at /data/db
    +------------------------------------
`;
  assert.deepEqual(stderrEnding(group), [
    "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)",
    "RuntimeError: no database at /data/db",
  ]);
});

Deno.test("Deno's coloured error, Go's goroutines and Rust's note are read through", () => {
  const deno = "starting\n\u001b[0m\u001b[1m\u001b[31merror\u001b[0m: Uncaught (in promise) " +
    'Error: boom at start\nconsole.error("starting"); throw new Error("boom at start");\n' +
    "\u001b[0m\u001b[31m                                 ^\u001b[0m\n" +
    "    at \u001b[0m\u001b[36mfile:///srv/d.ts\u001b[0m:\u001b[0m\u001b[33m1\u001b[0m:34\n";
  assert.deepEqual(stderrEnding(deno), [
    "starting",
    "error: Uncaught (in promise) Error: boom at start",
  ]);
  const go = "panic: open config.toml: no such file or directory\n\ngoroutine 1 [running]:\n" +
    "main.main()\n\t/srv/main.go:12 +0x1d\nexit status 2\n";
  assert.deepEqual(stderrEnding(go), [
    "panic: open config.toml: no such file or directory",
    "exit status 2",
  ]);
  const rust = "thread 'main' panicked at src/main.rs:5:5:\nno token given\n" +
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
  assert.deepEqual(stderrEnding(rust), [
    "thread 'main' panicked at src/main.rs:5:5:",
    "no token given",
  ]);
});

Deno.test("the error line stays in sight when the server logs on after it", () => {
  const text = "TypeError: settings.port is undefined\nretrying in 1 s\nretrying in 2 s\n" +
    "retrying in 4 s\n";
  assert.deepEqual(stderrEnding(text), [
    "TypeError: settings.port is undefined",
    "retrying in 2 s",
    "retrying in 4 s",
  ]);
  // Ordinary logs are shown as they are, their last lines, escaped.
  assert.deepEqual(stderrEnding("one\ntwo\nthree \u001b]0;x\u0007\nfour\n"), [
    "two",
    "three \\u001b]0;x\\u0007",
    "four",
  ]);
  // Only framing: shown rather than nothing.
  assert.deepEqual(stderrEnding("}\nNode.js v20.20.2\n"), ["}", "Node.js v20.20.2"]);
});

Deno.test("npm's update notice after a server's error is skipped (npx servers print it when npm is old)", () => {
  // server-filesystem given a folder that does not exist, run by npx in hel's sandbox.
  const text = "Warning: Cannot access directory /nonexistent/dir, skipping\n" +
    "Error: None of the specified directories are accessible\n" +
    "npm notice\n" +
    "npm notice New major version of npm available! 10.8.2 -> 11.21.2\n" +
    "npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.21.2\n" +
    "npm notice To update run: npm install -g npm@11.21.2\n" +
    "npm notice\n";
  assert.deepEqual(stderrEnding(text), [
    "Warning: Cannot access directory /nonexistent/dir, skipping",
    "Error: None of the specified directories are accessible",
  ]);
});

Deno.test("a 64 KiB line is read by its start, quickly, and shown cut", () => {
  const started = performance.now();
  const [line] = stderrEnding("a.".repeat(32_768));
  // Read whole, the error pattern took about ten seconds on this line.
  assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
  assert.equal(line, `${"a.".repeat(120)}…`);
});
