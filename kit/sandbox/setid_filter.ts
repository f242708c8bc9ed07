/**
 * The seccomp filter that keeps sandboxed programs from making set-uid or set-gid files: a
 * classic BPF program, as bubblewrap's `--seccomp FD` loads it. bubblewrap mounts everything
 * `nosuid`, but that only stops such files from working inside; a file made there works
 * outside. Run as root, a command could otherwise leave a set-uid-root shell in the project.
 *
 * The filter fails with EPERM: chmod, fchmod, fchmodat and fchmodat2 with S_ISUID or S_ISGID in
 * the mode; open, openat, creat, mknod and mknodat creating a file with those bits. It fails
 * with ENOSYS: openat2 (its mode sits in a struct a filter cannot read; libc falls back to
 * openat) and io_uring (its requests can create files out of the filter's sight). Programs of
 * another architecture (32-bit, x32) are killed: their calls have other numbers.
 *
 * @module
 */

/** The architectures hel runs on (Deno's names) and what the kernel calls them (AUDIT_ARCH_*). */
const AUDIT_ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 } as const;

/** An architecture the filter is built for. */
export type FilterArch = keyof typeof AUDIT_ARCH;

const SET_ID_BITS = 0o6000; // S_ISUID | S_ISGID
const CREATES = 0o100 | 0o20000000; // O_CREAT | __O_TMPFILE, the same on both architectures
const X32_BIT = 0x40000000; // x32 calls come with the x86_64 arch and this bit in the number

const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

// Opcodes of classic BPF (linux/filter.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

/** One system call the filter looks at, and how. */
type Rule =
  /** The mode (argument `mode`) must not carry the set-id bits. */
  | { nr: number; mode: number }
  /** Creating (argument `flags` has O_CREAT or O_TMPFILE) with a set-id mode is refused. */
  | { nr: number; flags: number; mode: number }
  /** Not offered at all: ENOSYS. */
  | { nr: number; absent: true };

const COMMON: Rule[] = [
  { nr: 452, mode: 2 }, // fchmodat2
  { nr: 437, absent: true }, // openat2
  { nr: 425, absent: true }, // io_uring_setup
  { nr: 426, absent: true }, // io_uring_enter
  { nr: 427, absent: true }, // io_uring_register
];

/** The numbers come from each architecture's unistd.h. */
const RULES: Record<FilterArch, Rule[]> = {
  x86_64: [
    { nr: 2, flags: 1, mode: 2 }, // open
    { nr: 257, flags: 2, mode: 3 }, // openat
    { nr: 85, mode: 1 }, // creat
    { nr: 90, mode: 1 }, // chmod
    { nr: 91, mode: 1 }, // fchmod
    { nr: 268, mode: 2 }, // fchmodat
    { nr: 133, mode: 1 }, // mknod
    { nr: 259, mode: 2 }, // mknodat
    ...COMMON,
  ],
  aarch64: [
    { nr: 56, flags: 2, mode: 3 }, // openat
    { nr: 52, mode: 1 }, // fchmod
    { nr: 53, mode: 2 }, // fchmodat
    { nr: 33, mode: 2 }, // mknodat
    ...COMMON,
  ],
};

/** One instruction: `struct sock_filter`. Jumps are relative to the next instruction. */
interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const op = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });
const ret = (value: number) => op(RET_K, value);
/** Loads the low 32 bits of a call argument (`struct seccomp_data`, little-endian). */
const loadArgument = (index: number) => op(LD_W_ABS, 16 + 8 * index);

/** The instructions that decide one rule's call; each path ends in a return. */
function ruleBlock(rule: Rule): Instruction[] {
  if ("absent" in rule) return [ret(RET_ERRNO | ENOSYS)];
  const checkMode = [
    loadArgument(rule.mode),
    op(JSET_K, SET_ID_BITS, 0, 1),
    ret(RET_ERRNO | EPERM),
    ret(RET_ALLOW),
  ];
  if (!("flags" in rule)) return checkMode;
  // Without O_CREAT the mode argument is whatever was left in the register: on to the allow.
  return [loadArgument(rule.flags), op(JSET_K, CREATES, 0, checkMode.length - 1), ...checkMode];
}

/** The filter's instructions for `arch`. */
export function setIdFilterProgram(arch: FilterArch): Instruction[] {
  const rules = RULES[arch];
  const head = [
    op(LD_W_ABS, 4), // arch
    op(JEQ_K, AUDIT_ARCH[arch], 1, 0),
    ret(RET_KILL_PROCESS),
    op(LD_W_ABS, 0), // nr
    ...(arch === "x86_64" ? [op(JGE_K, X32_BIT, 0, 1), ret(RET_KILL_PROCESS)] : []),
  ];
  const blocks = rules.map(ruleBlock);
  // A jump per rule to its block, then allow everything else; blocks follow in rule order.
  const dispatch: Instruction[] = [];
  let offset = rules.length; // from the first jump: past the other jumps and the allow
  rules.forEach((rule, i) => {
    const distance = offset - i;
    if (distance > 255) throw new Error("seccomp filter: a jump is too long");
    dispatch.push(op(JEQ_K, rule.nr, distance, 0));
    offset += blocks[i]!.length;
  });
  return [...head, ...dispatch, ret(RET_ALLOW), ...blocks.flat()];
}

/** The filter for `arch` as bytes (`struct sock_filter[]`, native little-endian). */
export function setIdFilter(arch: FilterArch): Uint8Array {
  const program = setIdFilterProgram(arch);
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(({ code, jt, jf, k }, i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return bytes;
}

/** The architecture to build the filter for: the one hel itself runs on. */
export function hostArch(): FilterArch {
  return Deno.build.arch;
}
