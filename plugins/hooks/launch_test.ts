import assert from "node:assert/strict";
import type { Sandbox } from "../../kit/mod.ts";
import type { HookHandler } from "./config.ts";
import { pathOutside } from "../../kit/mod.ts";
import { createLauncher } from "./launch.ts";

const handler = (command: string, sandbox = true): HookHandler => ({
  event: "PreToolUse",
  index: 0,
  matcher: undefined,
  pattern: undefined,
  command,
  timeoutSeconds: 600,
  onError: "continue",
  sandbox,
});

async function project() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hel-launch-" }));
  for (const path of [".hel/guard.sh", ".hel/lib/util.py", ".hel/sessions/s/snapshot.json"]) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, "");
  }
  await Deno.symlink("/etc/hostname", `${dir}/.hel/link`);
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("an unsandboxed hook runs /bin/sh with no PATH folder inside the project", async () => {
  await using p = await project();
  assert.equal(
    pathOutside(`${p.dir}/.venv/bin:node_modules/.bin:/usr/bin:${p.dir}:/bin`, p.dir),
    "/usr/bin:/bin",
  );
  const sandbox: Pick<Sandbox, "prepare"> = {
    prepare: () => Promise.reject(new Error("not sandboxed")),
  };
  const env = () => ({ PATH: `${p.dir}/bin:/usr/bin`, HOME: "/h" });
  const launch = createLauncher(sandbox, true, p.dir, env);
  assert.deepEqual(await launch(handler("python3 x.py", false)), {
    ok: true,
    program: "/bin/sh",
    args: ["-c", "python3 x.py"],
    env: { PATH: "/usr/bin", HOME: "/h" },
  });
  // --sandbox off: every hook runs so.
  const off = createLauncher(sandbox, false, p.dir, env);
  assert.equal((await off(handler("true"))).ok, true);
});

Deno.test("a sandboxed hook is prepared by the sandbox with what it may see of .hel", async () => {
  await using p = await project();
  const seen: unknown[] = [];
  const sandbox: Pick<Sandbox, "prepare"> = {
    prepare(program, args, options) {
      seen.push([program, args, options]);
      return Promise.resolve({ ok: true, program: "bwrap", args: [], env: {} });
    },
  };
  await createLauncher(sandbox, true, p.dir, () => ({}))(handler(".hel/guard.sh"));
  assert.deepEqual(seen, [["/bin/sh", ["-c", ".hel/guard.sh"], {
    expose: [`${p.dir}/.hel/guard.sh`],
    reads: [],
  }]]);
});
