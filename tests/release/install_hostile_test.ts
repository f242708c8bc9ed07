/**
 * install.sh against a hostile or broken place: a planted folder or link at the install path, an
 * https mirror that redirects to plain http, a script cut short in transit.
 */
import assert from "node:assert/strict";
import { runCommand } from "../_helpers.ts";
import {
  DASH,
  exists,
  install,
  INSTALL_SH,
  installed,
  installEnv,
  leftovers,
  release,
  setup,
  toolsWithoutCurl,
} from "./_install.ts";

Deno.test("install.sh: a folder, or a link to one, at the install path is refused, nothing put in it", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  const elsewhere = `${s.root}/home/elsewhere`;
  await Deno.mkdir(elsewhere, { recursive: true });
  await Deno.mkdir(`${s.root}/home/.local/bin`, { recursive: true });
  await Deno.symlink(elsewhere, installed(s));
  const result = await install(s);
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stderr, /\/home\/\.local\/bin\/hel is a folder \(or a link to one\)/);
  assert.match(result.stderr, /nothing was installed/);
  assert.deepEqual([...Deno.readDirSync(elsewhere)], []);
  assert.deepEqual(await leftovers(s), []);
});

const opensslMissing = await new Deno.Command("openssl", { args: ["version"], stdout: "null" })
  .output().then((o) => !o.success, () => true);

Deno.test({
  name: "install.sh with wget: an https base redirected to http:// is refused",
  ignore: opensslMissing || !exists("/usr/bin/wget"),
  async fn() {
    await using s = await setup({ latest: await release("0.2.0") });
    // A certificate for 127.0.0.1 that wget trusts through its own settings file (WGETRC).
    const key = `${s.root}/key.pem`, cert = `${s.root}/cert.pem`;
    const made = await new Deno.Command("openssl", {
      args: ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert]
        .concat(["-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]),
      stdout: "null",
      stderr: "null",
    }).output();
    assert.ok(made.success, "openssl req");
    await Deno.writeTextFile(`${s.root}/wgetrc`, `ca_certificate = ${cert}\n`);
    // /same/... answers over https; /down/... redirects to the plain-http release server.
    const https = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      key: await Deno.readTextFile(key),
      cert: await Deno.readTextFile(cert),
      onListen() {},
    }, async (request) => {
      const [, mode, ...rest] = new URL(request.url).pathname.split("/");
      const target = `${s.base}/${rest.join("/")}`;
      if (mode === "down") return Response.redirect(target, 302);
      const answer = await fetch(target);
      return new Response(await answer.arrayBuffer(), { status: answer.status });
    });
    try {
      const base = `https://127.0.0.1:${https.addr.port}`;
      const env = { PATH: await toolsWithoutCurl(s), WGETRC: `${s.root}/wgetrc` };
      const same = await install(s, [], { ...env, HEL_INSTALL_BASE: `${base}/same` });
      assert.equal(same.code, 0, same.stderr);
      await Deno.remove(installed(s));
      const down = await install(s, [], { ...env, HEL_INSTALL_BASE: `${base}/down` });
      assert.equal(down.code, 1, down.stdout);
      assert.match(down.stderr, /hel-linux-x64 redirected to plain http; refused/);
      assert.match(down.stderr, /nothing was installed/);
      assert.equal(await Deno.stat(installed(s)).then(() => true, () => false), false);
    } finally {
      await https.shutdown();
      await Deno.remove(key);
      await Deno.remove(cert);
      await Deno.remove(`${s.root}/wgetrc`);
    }
  },
});

Deno.test("install.sh cut short in transit (curl | sh) runs none of it", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  const script = await Deno.readTextFile(INSTALL_SH);
  // Cut after the downloads, before the checksum is checked.
  const cut = script.slice(0, script.indexOf("# A line is"));
  assert.ok(cut.includes('download "$url/$asset"') && cut.length < script.length);
  const output = await runCommand(DASH, ["-s"], {
    env: installEnv(s),
    clearEnv: true,
    stdin: cut,
  });
  assert.notEqual(output.code, 0);
  assert.deepEqual(s.requests, [], "nothing downloaded");
  assert.equal(await Deno.stat(installed(s)).then(() => true, () => false), false);
  assert.deepEqual(await leftovers(s), []);
});

Deno.test("install.sh: a plain-http base elsewhere than this machine is refused before any download", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  // The same server under a name that is not 127.0.0.1 or localhost: nothing may reach it.
  const port = new URL(s.base).port;
  const result = await install(s, [], { HEL_INSTALL_BASE: `http://127.0.0.2:${port}` });
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stderr, /HEL_INSTALL_BASE must be an https:\/\/ address/);
  assert.match(result.stderr, /nothing was installed/);
  assert.equal(exists(installed(s)), false);
  assert.deepEqual(await leftovers(s), []);
});

Deno.test("install.sh tries the binary where it installs it, not in a noexec TMPDIR", async () => {
  await using s = await setup({ latest: await release("0.2.0") });
  // Where the binary is tried: in the install folder, where it will run, not in TMPDIR (which
  // may be mounted noexec).
  const tmp = `${s.root}/noexec-tmp`;
  await Deno.mkdir(tmp);
  const log = `${s.root}/ran-from`;
  const result = await install(s, [], { TMPDIR: tmp, HEL_STANDIN_LOG: log });
  assert.equal(result.code, 0, result.stderr);
  const ran = await Deno.readTextFile(log);
  assert.match(ran, /\/home\/\.local\/bin\/\.hel-install\./);
  assert.ok(!ran.includes(tmp), `the binary ran from ${ran}`);
});
