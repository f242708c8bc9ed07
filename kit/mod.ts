/**
 * What plugins may share beyond the core's contracts: the sandbox every program the model can
 * influence runs in (commands, hooks, MCP servers), the trust store and its review, careful
 * reading of project config files, child processes, private and link-safe file writes, and the
 * terminal output layer. Plugins import the kit only through this module.
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
export {
  looksSecret,
  parseSandboxEnv,
  VARIABLE_NAME,
  withoutSecrets,
} from "./sandbox/environment.ts";
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
export { sha256Hex } from "./trust/file_store.ts";
export { concatBytes } from "./bytes.ts";
export { fileStart, sha256OfFile } from "./file_digest.ts";
export { withFileLock, writePrivateFile } from "./private_file.ts";
export {
  appendLine,
  lstatOrUndefined,
  makeFolderChain,
  openFileNoFollow,
  UnsafePathError,
  writeFileAtomic,
  writeNewFile,
} from "./safe_write.ts";
export { escapeControlCharacters, reviewTrust, type TrustOutcome } from "./trust/review.ts";
export { writeErr, writeOut } from "./output.ts";
export {
  findSystemProgram,
  inNewProcessGroup,
  processGroupAlive,
  signalProcessGroup,
} from "./process/group.ts";
export { createTrustFileStore } from "./trust/file_store.ts";
export {
  PROJECT_CONFIG_MAX_BYTES,
  type ProjectConfigFile,
  readProjectConfig,
} from "./config/project_file.ts";
export {
  projectIsHelHome,
  readUserConfig,
  type UserConfigFile,
  userConfigPath,
} from "./config/user_file.ts";
export {
  didYouMean,
  type JsoncParse,
  type JsoncParseOptions,
  jsoncProperties,
  type JsoncProperty,
  parseJsoncConfig,
} from "./config/jsonc.ts";
export {
  type ChildOutcome,
  type ChildSpec,
  type ChildStop,
  runChild,
  settleWithin,
} from "./process/child.ts";
export { environmentWithoutSecrets, SECRET_ENV_NAMES } from "./process/privacy.ts";
export { editJsoncFile, editJsoncText } from "./config/jsonc_edit.ts";
export { HEL_FOLDER_GITIGNORE, makeHelFolder } from "./config/hel_folder.ts";
