import assert from "node:assert/strict";
import { joinCgroup, processLimit } from "./process_limit.ts";

Deno.test("an ordinary user's sandbox gets prlimit inside, or a warning without it", () => {
  const prlimit = processLimit(64, "/usr/bin:/bin", "/w/proj", 1000);
  if (prlimit.inside.length > 0) {
    assert.deepEqual(prlimit, { inside: [prlimit.inside[0], "--nproc=64:64", "--"] });
    assert.match(prlimit.inside[0]!, /\/prlimit$/);
  }
  const none = processLimit(64, "", "/w/proj", 1000);
  assert.deepEqual(none.inside, []);
  assert.match(none.missing ?? "", /prlimit \(util-linux\) is not installed/);
});

Deno.test("joining the cgroup comes first, then the launch runs as the same process", () => {
  assert.deepEqual(joinCgroup({ program: "/bin/sh", args: ["-c", "x"] }, "/cg/cgroup.procs"), {
    program: "/bin/sh",
    args: ["-c", 'echo $$ > "$0" && exec "$@"', "/cg/cgroup.procs", "/bin/sh", "-c", "x"],
  });
});
