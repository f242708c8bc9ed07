/**
 * What plugins may share beyond the core's contracts: the sandbox every program the model can
 * influence runs in (commands, hooks, MCP servers), and the path and file-identity questions it
 * rests on. Plugins import the kit only through this module.
 *
 * @module
 */
export { type FileIdentity, identityOf, sameIdentity } from "./file_identity.ts";
export { isWithin, pathOutside, touchesGit, touchesProtected } from "./paths.ts";
export {
  bwrapArguments,
  createSandbox,
  foldersToPin,
  type Prepared,
  type PrepareOptions,
  runFoldersToKeep,
  type Sandbox,
  type SandboxSettings,
} from "./sandbox/sandbox.ts";
export {
  HOME_TOOLCHAINS,
  type HomeView,
  homeView,
  parseSandboxReads,
  PRIVATE_FOLDERS,
  TOOLCHAIN_VARIABLES,
} from "./sandbox/home.ts";
export { type GitMetadata, gitMetadata } from "./sandbox/git_metadata.ts";
export { commandWords, type Covers, type NamedPaths, namedPaths } from "./sandbox/named_paths.ts";
export { looksSecret, parseSandboxEnv, withoutSecrets } from "./sandbox/environment.ts";
export { rootWarning } from "./sandbox/root_warning.ts";
export { parseGitlinks, submodulePaths } from "./sandbox/git_index.ts";
export {
  helHomeInside,
  SANDBOX_OPTIONS,
  type SandboxFlags,
  sandboxFlags,
  sandboxSettingsFor,
} from "./sandbox/settings.ts";
export { describeChange, type GitChange, GitWatch, gitWatch } from "./sandbox/planted_git.ts";
