import assert from "node:assert/strict";
import { hasBwrap, testWorkspace } from "../../plugins/tools/testing.ts";
import { createSandbox } from "./sandbox.ts";
import { runCommand } from "../../plugins/tools/shell/run_command.ts";
import { type FilterArch, setIdFilter, setIdFilterProgram } from "./setid_filter.ts";

const AUDIT = { x86_64: 0xc000003e, aarch64: 0xc00000b7, i386: 0x40000003 };
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const KILL = 0x80000000;

/**
 * Runs the filter as the kernel would on one call (the few classic BPF opcodes it uses), so
 * the aarch64 program is checked on any machine.
 */
function decide(arch: FilterArch, auditArch: number, nr: number, args: number[] = []): number {
  const data = [nr, auditArch, 0, 0, ...args.flatMap((arg) => [arg, 0])];
  let a = 0;
  const program = setIdFilterProgram(arch);
  for (let pc = 0; pc < program.length; pc++) {
    const { code, jt, jf, k } = program[pc]!;
    if (code === 0x20) a = data[k / 4]!;
    else if (code === 0x06) return k;
    else {
      const taken = code === 0x15 ? a === k : code === 0x35 ? a >= k : (a & k) !== 0;
      assert.ok([0x15, 0x35, 0x45].includes(code), `opcode ${code}`);
      pc += taken ? jt : jf;
    }
  }
  throw new Error("the filter ran off its end");
}

Deno.test("the filter refuses set-id modes on both architectures and allows the rest", () => {
  const calls = {
    x86_64: { fchmod: 91, fchmodat: 268, openat: 257, mknodat: 259 },
    aarch64: { fchmod: 52, fchmodat: 53, openat: 56, mknodat: 33 },
  };
  for (const arch of ["x86_64", "aarch64"] as const) {
    const at = (nr: number, args?: number[]) => decide(arch, AUDIT[arch], nr, args);
    const c = calls[arch];
    for (const nr of [c.fchmod, c.fchmodat, 452]) {
      const args = (mode: number) => Object.assign([0, 0, 0], { [nr === c.fchmod ? 1 : 2]: mode });
      assert.equal(at(nr, args(0o4755)), EPERM, `${arch} ${nr} u+s`);
      assert.equal(at(nr, args(0o2755)), EPERM, `${arch} ${nr} g+s`);
      assert.equal(at(nr, args(0o1777)), ALLOW, `${arch} ${nr} sticky is fine`);
    }
    const openat = (flags: number, mode: number) => at(c.openat, [0, 0, flags, mode]);
    assert.equal(openat(0o100 | 0o1, 0o4755), EPERM); // O_CREAT | O_WRONLY
    assert.equal(openat(0o20000000 | 0o2, 0o2700), EPERM); // O_TMPFILE
    assert.equal(openat(0o100, 0o644), ALLOW);
    assert.equal(openat(0, 0o4755), ALLOW); // no O_CREAT: the mode is whatever, unused
    assert.equal(at(c.mknodat, [0, 0, 0o104755]), EPERM); // S_IFREG | 04755
    for (const absent of [437, 425, 426, 427]) assert.equal(at(absent), ENOSYS);
    assert.equal(at(0, [0o4755, 0o4755, 0o4755]), ALLOW, "read and the like pass");
    // Another architecture's calls have other numbers: killed, never judged by these.
    assert.equal(decide(arch, AUDIT.i386, 15, [0, 0o4755]), KILL);
  }
  assert.equal(decide("x86_64", AUDIT.x86_64, 0x40000000 | 90, [0, 0o4755]), KILL, "x32");
  assert.equal(decide("x86_64", AUDIT.x86_64, 90, [0, 0o4755]), EPERM, "chmod");
  assert.equal(decide("x86_64", AUDIT.x86_64, 2, [0, 0o101, 0o4755]), EPERM, "open");
  assert.equal(decide("x86_64", AUDIT.x86_64, 85, [0, 0o6755]), EPERM, "creat");
  assert.equal(decide("x86_64", AUDIT.x86_64, 133, [0, 0o102755]), EPERM, "mknod");
  assert.equal(setIdFilter("x86_64").length, setIdFilterProgram("x86_64").length * 8);
});

Deno.test({
  name: "under the filter real programs cannot make set-id files, and ordinary work goes on",
  ignore: !hasBwrap(),
  async fn() {
    await using t = await testWorkspace();
    // The real home: python may come from a toolchain there (pyenv), shown in the sandbox.
    const home = Deno.env.get("HOME") ?? t.root;
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home, LANG: "C" };
    const sandbox = createSandbox({
      enabled: true,
      network: false,
      project: t.project,
      helDir: `${t.project}/.hel`,
      env,
    });
    const run = async (command: string) => {
      const prepared = await sandbox.prepare("/bin/bash", ["-c", command]);
      assert.ok(prepared.ok, !prepared.ok ? prepared.text : "");
      const outcome = await runCommand({ ...prepared, cwd: t.project, timeoutMs: 30_000 });
      assert.equal(outcome.kind, "finished");
      return outcome.kind === "finished"
        ? `${outcome.code} ${outcome.stdout}${outcome.stderr}`
        : "";
    };
    const py = (code: string) => `python3 -c '${code}'`;
    const refused = [
      "cp /bin/sh a && chmod 4755 a",
      "mkdir d && chmod g+s d",
      "install -m 2755 /bin/sh b",
      py('import os; os.open("c", os.O_CREAT | os.O_WRONLY, 0o4755)'),
      py('import os; os.mknod("e", 0o100000 | 0o4755)'),
      py('import os; f = os.open("f", os.O_CREAT | os.O_WRONLY); os.fchmod(f, 0o6755)'),
      py('import os; os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o4700)'),
    ];
    for (const command of refused) {
      const output = await run(command);
      assert.match(
        output,
        /^1 .*(Operation not permitted|PermissionError)/s,
        `${command}: ${output}`,
      );
    }
    const fine = await run(
      "echo hi > g && chmod 755 g && chmod +t . && mkdir -p h/i && cp -p g h/j && cat h/j && " +
        py('import os; print(os.open("g", os.O_RDONLY, 0o4755) > 0)'),
    );
    assert.equal(fine, "0 hi\nTrue\n");
    const syscall = (nr: number) =>
      py(
        `import ctypes; l = ctypes.CDLL(None, use_errno=True); l.syscall(${nr}, 0, 0, 0, 0); print(ctypes.get_errno())`,
      );
    assert.equal(await run(`${syscall(437)} && ${syscall(425)}`), "0 38\n38\n"); // ENOSYS
    for await (const entry of Deno.readDir(t.project)) {
      const mode = (await Deno.lstat(`${t.project}/${entry.name}`)).mode ?? 0;
      assert.equal(mode & 0o6000, 0, entry.name);
    }
  },
});
