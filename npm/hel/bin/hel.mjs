#!/usr/bin/env node
// The `hel` command of the npm package: finds the binary that npm installed for this platform
// (the optional dependency `<this package>-<os>-<cpu>`, chosen by npm from its os/cpu fields)
// and runs it with the same arguments, standard streams, exit code and signals.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { constants } from "node:os";
import process from "node:process";

const require = createRequire(import.meta.url);
const own = require("../package.json");
const OS = { linux: "linux", darwin: "macos", win32: "windows" }[process.platform];
const CPU = { x64: "x64", arm64: "arm64" }[process.arch];
const platform = `${process.platform}-${process.arch}`;

function fail(message) {
  process.stderr.write(`hel: ${message}\n`);
  process.exit(1);
}

if (!OS || !CPU) {
  fail(
    `no hel binary for ${platform} (there are binaries for Linux and macOS on x64 and ` +
      "arm64, and Windows on x64); install from source instead, see the README",
  );
}
const name = `${own.name}-${OS}-${CPU}`;
let binary;
try {
  const dir = require.resolve(`${name}/package.json`).replace(/package\.json$/, "");
  binary = `${dir}bin/hel${OS === "windows" ? ".exe" : ""}`;
} catch {
  fail(
    `the package ${name} with the binary for ${platform} is not installed. npm skips ` +
      "optional dependencies with --no-optional or --omit=optional; reinstall without it: " +
      `npm install -g ${own.name}`,
  );
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
// Signals sent to this process are passed on. Ctrl-C on a terminal already reaches hel (the
// whole process group gets it): passing it on as well would make one press count as two.
for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
process.on("SIGINT", () => {});
child.on("error", (error) => fail(`cannot run ${binary}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // Ended by the same signal, so that a shell sees what happened; except the two Node does
    // not die of (it ignores SIGPIPE, and SIGUSR1 would start its debugger). Where the signal
    // did not end this process, the exit code says it as a shell would: 128 + its number.
    if (signal !== "SIGPIPE" && signal !== "SIGUSR1") {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(128 + (constants.signals[signal] ?? 0));
  } else {
    process.exit(code ?? 1);
  }
});
