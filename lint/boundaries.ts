/**
 * hel's layout as lint rules, run by `deno lint` (and so by `deno task ci`):
 *
 * - `plugin-imports`: a file in `plugins/<name>/` imports from the project only `core/mod.ts`,
 *   `kit/mod.ts` and its own plugin's files (npm:, node: and import-map packages are free);
 * - `core-imports`: a file in `core/` imports nothing outside `core/`, and of Node's modules only
 *   those that do no I/O;
 * - `core-no-deno`: a file in `core/` names no `Deno` API, tests included (they use `node:test`
 *   and `node:assert`), so the kernel stays free of I/O;
 * - `max-lines`: no source file has more than {@link MAX_LINES} lines.
 *
 * The project root is the folder above this file's `lint/` folder, so a copy of the rules in
 * another tree (the rules' own test) judges that tree.
 *
 * @module
 */
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The most lines a source file may have (the style guide's hard limit). */
export const MAX_LINES = 450;

/** Node modules without I/O that the core may use: assertions, tests and pure helpers. */
export const CORE_NODE_MODULES: readonly string[] = [
  "node:assert",
  "node:assert/strict",
  "node:test",
  "node:path",
  "node:util",
  "node:buffer",
  "node:events",
  "node:string_decoder",
  "node:url",
];

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const PLUGIN_ENTRIES = ["core/mod.ts", "kit/mod.ts"].map((file) => resolve(ROOT, file));

type Node = Deno.lint.Node;
type Context = Deno.lint.RuleContext;

/** Where a file sits in the layout, as far as the rules care. */
type Place = { kind: "core" } | { kind: "plugin"; folder: string } | { kind: "other" };

function placeOf(filename: string): Place {
  const rel = relative(ROOT, filename).split(sep);
  if (rel[0] === "core" && rel.length > 1) return { kind: "core" };
  if (rel[0] === "plugins" && rel.length > 1) {
    // A plugin is a folder under plugins/; a lone file there is a plugin by itself.
    const folder = rel.length > 2 ? resolve(ROOT, "plugins", rel[1]!) : filename;
    return { kind: "plugin", folder };
  }
  return { kind: "other" };
}

/** A specifier naming a file of this tree (relative, absolute or file:), resolved. */
function projectFile(specifier: string, filename: string): string | undefined {
  if (specifier.startsWith("file:")) return fileURLToPath(specifier);
  if (/^\.{0,2}\//.test(specifier)) return resolve(dirname(filename), specifier);
  return undefined;
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

function shown(path: string): string {
  return relative(ROOT, path).split(sep).join("/");
}

/** Calls `check` with every module specifier the file names as a string literal. */
function visitSpecifiers(check: (specifier: string, node: Node) => void): Deno.lint.LintVisitor {
  const literal = (node: Node | null | undefined) => {
    if (node?.type === "Literal" && typeof node.value === "string") check(node.value, node);
  };
  return {
    ImportDeclaration: (node) => literal(node.source),
    ExportNamedDeclaration: (node) => literal(node.source),
    ExportAllDeclaration: (node) => literal(node.source),
    ImportExpression: (node) => literal(node.source),
    TSExternalModuleReference: (node) => literal(node.expression),
    TSImportType: (node) => {
      if (node.argument.type === "TSLiteralType") literal(node.argument.literal);
    },
  };
}

const pluginImports: Deno.lint.Rule = {
  create(ctx: Context) {
    const place = placeOf(ctx.filename);
    if (place.kind !== "plugin") return {};
    return visitSpecifiers((specifier, node) => {
      const target = projectFile(specifier, ctx.filename);
      if (target === undefined || PLUGIN_ENTRIES.includes(target)) return;
      if (isInside(target, place.folder)) return;
      ctx.report({
        node,
        message: `a plugin imports from hel only core/mod.ts and kit/mod.ts, not ` +
          `${shown(target)} ("${specifier}")`,
        hint: "Import it from core/mod.ts or kit/mod.ts (export it there if plugins share it), " +
          "or move the code into this plugin's folder.",
      });
    });
  },
};

const coreImports: Deno.lint.Rule = {
  create(ctx: Context) {
    if (placeOf(ctx.filename).kind !== "core") return {};
    const core = resolve(ROOT, "core");
    return visitSpecifiers((specifier, node) => {
      const target = projectFile(specifier, ctx.filename);
      if (target !== undefined) {
        if (isInside(target, core)) return;
        ctx.report({
          node,
          message: `core/ imports nothing outside core/, not ${shown(target)} ("${specifier}")`,
          hint: "Move the code into core/, or let agent/ (which assembles the run) pass it in " +
            "as a parameter or through the host.",
        });
      } else if (specifier.startsWith("node:") && !CORE_NODE_MODULES.includes(specifier)) {
        ctx.report({
          node,
          message: `core/ does no I/O, so it does not import ${specifier}`,
          hint: `Do the I/O in agent/ or kit/ and pass the result in; core/ may use ` +
            `${CORE_NODE_MODULES.join(", ")}.`,
        });
      } else if (/^(https?|jsr|data):/.test(specifier)) {
        ctx.report({
          node,
          message: `core/ imports packages only through npm: (or deno.json's imports), ` +
            `not "${specifier}"`,
          hint: "Pin the package in deno.json's imports as an npm: specifier.",
        });
      }
    });
  },
};

/** True when the identifier names something other than the global: `x.Deno`, `{ Deno: 1 }`. */
function isPropertyName(node: Deno.lint.Identifier): boolean {
  const parent = node.parent;
  switch (parent.type) {
    case "MemberExpression":
      return parent.property === node && !parent.computed;
    case "TSQualifiedName":
      return parent.right === node;
    case "Property":
    case "PropertyDefinition":
    case "MethodDefinition":
    case "TSPropertySignature":
    case "TSMethodSignature":
      return parent.key === node && !parent.computed;
    default:
      return false;
  }
}

const coreNoDeno: Deno.lint.Rule = {
  create(ctx: Context) {
    if (placeOf(ctx.filename).kind !== "core") return {};
    return {
      Identifier(node) {
        if (node.name !== "Deno" || isPropertyName(node)) return;
        ctx.report({
          node,
          message: "core/ calls no Deno API: the kernel does no I/O and runs anywhere",
          hint: "Do the I/O in agent/ or kit/ and pass the result or a function in; " +
            'core tests use test() from "node:test" and "node:assert/strict".',
        });
      },
    };
  },
};

const maxLines: Deno.lint.Rule = {
  create(ctx: Context) {
    return {
      Program(node) {
        const text = ctx.sourceCode.text;
        const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
        if (lines <= MAX_LINES) return;
        ctx.report({
          range: [node.range[0], node.range[0]],
          message: `${shown(ctx.filename)} has ${lines} lines; no source file may have more ` +
            `than ${MAX_LINES}`,
          hint: "Split it by concern into files well under 300 lines.",
        });
      },
    };
  },
};

/** The plugin `deno.json` lists under `lint.plugins`. */
const boundaries: Deno.lint.Plugin = {
  name: "boundaries",
  rules: {
    "plugin-imports": pluginImports,
    "core-imports": coreImports,
    "core-no-deno": coreNoDeno,
    "max-lines": maxLines,
  },
};

export default boundaries;
