import assert from "node:assert/strict";
import { launchWithFilter } from "./seccomp.ts";
import { hostArch, setIdFilter } from "./setid_filter.ts";

Deno.test("bwrap is started by the system shell with the filter file on fd 9", async () => {
  const launch = await launchWithFilter("/usr/bin/bwrap", ["--unshare-all"], ["ls"], "/w/p");
  assert.equal(launch.program, "/bin/sh");
  const [flag, script, bwrap, file, ...rest] = launch.args;
  assert.deepEqual([flag, bwrap], ["-c", "/usr/bin/bwrap"]);
  assert.match(script!, /exec "\$0" --seccomp 9 "\$@" 9<"\$f"/);
  assert.deepEqual(rest, ["--unshare-all", "--", "ls"]);
  assert.deepEqual(await Deno.readFile(file!), setIdFilter(hostArch()));
  assert.equal((await Deno.stat(file!)).mode! & 0o777, 0o600);
  // In a project that holds the temporary folder (hel started in /tmp), it is covered.
  const dir = file!.slice(0, file!.lastIndexOf("/"));
  const inside = await launchWithFilter("/usr/bin/bwrap", ["--bind", "/", "/"], ["ls"], "/");
  assert.deepEqual(inside.args.slice(7), ["--tmpfs", dir, "--remount-ro", dir, "--", "ls"]);
});
