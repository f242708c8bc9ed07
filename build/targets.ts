/**
 * The platforms `deno task build` can produce hel for, by short name and Rust target triple,
 * and the name each artefact gets under `dist/`.
 *
 * @module
 */

/** One platform of the release. */
export interface BuildTarget {
  /** Short name used on the command line and in artefact names, e.g. `linux-x64`. */
  name: string;
  /** The triple `deno compile --target` takes. */
  triple: string;
  /** Executable suffix (`.exe` on Windows). */
  suffix: string;
  /** Executable format, checked on the written artefact: ELF, Mach-O or PE. */
  format: "elf" | "macho" | "pe";
}

/** Every platform of a release, in the order they are built and printed. */
export const TARGETS: readonly BuildTarget[] = [
  { name: "linux-x64", triple: "x86_64-unknown-linux-gnu", suffix: "", format: "elf" },
  { name: "linux-arm64", triple: "aarch64-unknown-linux-gnu", suffix: "", format: "elf" },
  { name: "macos-x64", triple: "x86_64-apple-darwin", suffix: "", format: "macho" },
  { name: "macos-arm64", triple: "aarch64-apple-darwin", suffix: "", format: "macho" },
  { name: "windows-x64", triple: "x86_64-pc-windows-msvc", suffix: ".exe", format: "pe" },
];

/** The platform this build runs on, or undefined when Deno runs somewhere hel is not built for. */
export function hostTarget(): BuildTarget | undefined {
  return TARGETS.find((target) => target.triple === Deno.build.target);
}

/**
 * Resolves the `--target` value: `all`, or a comma-separated list of short names or triples.
 * Throws an Error naming the unknown entry and the accepted names.
 */
export function parseTargets(value: string): BuildTarget[] {
  if (value.trim() === "all") return [...TARGETS];
  const picked: BuildTarget[] = [];
  for (const word of value.split(",").map((part) => part.trim()).filter(Boolean)) {
    const target = TARGETS.find((t) => t.name === word || t.triple === word);
    if (!target) {
      const names = TARGETS.map((t) => t.name).join(", ");
      throw new Error(`--target ${word}: unknown platform (use all, or some of: ${names})`);
    }
    if (!picked.includes(target)) picked.push(target);
  }
  if (picked.length === 0) throw new Error("--target: name at least one platform, or all");
  return picked;
}

/** True when the first bytes of a file are the executable header the target needs. */
export function hasExecutableHeader(target: BuildTarget, head: Uint8Array): boolean {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (target.format === "elf") return starts(0x7f, 0x45, 0x4c, 0x46);
  if (target.format === "pe") return starts(0x4d, 0x5a);
  // 64-bit Mach-O, little-endian (both Apple architectures).
  return starts(0xcf, 0xfa, 0xed, 0xfe);
}
