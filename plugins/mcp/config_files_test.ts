import assert from "node:assert/strict";
import { parseMcpConfig, type ServerConfig } from "./config.ts";
import { clashText, mergeServers, readMcpConfigs, readUserMcpConfig } from "./config_files.ts";

const servers = (text: string, path: string): ServerConfig[] => {
  const parsed = parseMcpConfig(new TextEncoder().encode(text), path);
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.servers;
};

Deno.test("the project's entry wins a name clash; every other server of both is kept, in name order", () => {
  const merged = mergeServers(
    servers('{"servers": {"t": {"command": "mine"}, "z": {"command": "z"}}}', "/home/me/mcp.json"),
    servers('{"servers": {"t": {"command": "theirs"}, "a": {"command": "a"}}}', ".hel/mcp.json"),
  );
  assert.deepEqual(merged.servers.map((s) => [s.name, s.command, s.file]), [
    ["a", "a", ".hel/mcp.json"],
    ["t", "theirs", ".hel/mcp.json"],
    ["z", "z", "/home/me/mcp.json"],
  ]);
  assert.deepEqual(merged.clashes, [{
    name: "t",
    user: "/home/me/mcp.json",
    project: ".hel/mcp.json",
  }]);
  assert.equal(
    clashText(merged.clashes[0]!),
    "MCP server t is configured in both /home/me/mcp.json and .hel/mcp.json; the project's " +
      "entry is used (remove one, or rename it, to silence this)",
  );
});

Deno.test("your own mcp.json: absent, not a file, or validated with its absolute path in messages", async () => {
  const home = await Deno.makeTempDir();
  try {
    assert.equal((await readUserMcpConfig(home)).kind, "absent");
    await Deno.mkdir(`${home}/mcp.json`);
    const folder = await readUserMcpConfig(home);
    assert.deepEqual(folder, {
      scope: "user",
      path: `${home}/mcp.json`,
      kind: "unusable",
      message: `${home}/mcp.json is not a regular file; it was ignored`,
    });
    await Deno.remove(`${home}/mcp.json`);
    await Deno.writeTextFile(`${home}/mcp.json`, '{"servers": {"a": {"command": 1}}}');
    const invalid = await readUserMcpConfig(`${home}/.`);
    assert.deepEqual(invalid, {
      scope: "user",
      path: `${home}/mcp.json`,
      kind: "invalid",
      problems: [
        `${home}/mcp.json:1:31: servers."a".command must be a non-empty string naming the ` +
        'program, e.g. "python3"',
      ],
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("started in the folder that holds $HEL_HOME, the project's .hel/mcp.json is your own file", async () => {
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${home}/.hel`);
    await Deno.writeTextFile(`${home}/.hel/mcp.json`, '{"servers": {"a": {"command": "x"}}}');
    const [user, project] = await readMcpConfigs(`${home}/.hel`, home);
    assert.equal(user.kind, "ok");
    assert.equal(project.kind, "absent");
    const [, elsewhere] = await readMcpConfigs(`${home}/other-home`, home);
    assert.equal(elsewhere.kind, "ok");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
