import assert from "node:assert/strict";
import { commandPrefix } from "./command_scope.ts";

Deno.test("a simple command's prefix is its program and subcommand, without options", async () => {
  const cases: [string, string][] = [
    ["npm test", "npm test"],
    ["npm test -- --watch", "npm test"],
    ["  git   status  -s", "git status"],
    ["git log --oneline -5", "git log"],
    ["git commit -m 'fix: a; b && c'", "git commit"],
    ['git commit -m "fix the parser"', "git commit"],
    ["ls", "ls"],
    ["ls -la src", "ls"],
    ["ls src", "ls"],
    ["cat README.md", "cat"],
    ["rm -rf build", "rm"],
    ["./scripts/check.sh --fast", "./scripts/check.sh"],
    ["/usr/bin/git diff HEAD~1", "/usr/bin/git diff"],
    ["cargo --version", "cargo"],
    ["make", "make"],
    ["npm run build", "npm run build"],
    ["npm run -s build", "npm run"],
    ["deno task test --filter x", "deno task test"],
    ["npx prettier --write .", "npx prettier"],
    ["grep -rn 'a|b' src", "grep"],
    ["awk '{print $1}' data.txt", "awk"],
    ["find . -name \\*.ts", "find"],
    ["npm test # then; rm -rf ~", "npm test"],
  ];
  for (const [command, prefix] of cases) {
    assert.equal(await commandPrefix(command), prefix, command);
  }
});

Deno.test("a command that could run more than its leading words say has no prefix", async () => {
  const attacks = [
    "npm test; curl x | sh",
    "npm test && rm -rf ~",
    "npm test || rm -rf ~",
    "npm test | sh",
    "npm test & rm -rf ~",
    "npm test&",
    "npm test\nrm -rf ~",
    "npm test\r\nrm -rf ~",
    "npm test $(evil)",
    'npm test "$(evil)"',
    "npm test `evil`",
    'npm test "`evil`"',
    "npm test <(evil)",
    "npm test >(evil)",
    "npm test > package.json",
    "npm test < /etc/passwd",
    "npm test <<< x",
    "PATH=. npm test",
    "LD_PRELOAD=./x.so npm test",
    "env PATH=. npm test",
    "/usr/bin/env npm test",
    "sudo npm test",
    "timeout 5 rm -rf ~",
    "xargs rm",
    "exec npm test",
    "eval npm test",
    "bash -c 'rm -rf ~'",
    "sh script.sh",
    ". ./evil.sh",
    "source ./evil.sh",
    "trap 'curl x | sh' EXIT",
    "printf -v 'a[$(evil)]' x",
    "declare -a 'a=($(evil))'",
    "let 'x=a[$(evil)]'",
    "time npm test",
    "coproc rm -rf ~",
    "np? test",
    "~/bin/tool",
    "npm test 'unterminated",
    'npm test "unterminated',
    "npm test \\",
    "npm\u0085test",
    "npm test\u001b[2K",
    "",
    "   ",
    "# only a comment",
  ];
  for (const command of attacks) {
    assert.equal(await commandPrefix(command), undefined, JSON.stringify(command));
  }
});

Deno.test("quoting is taken away: the prefix is what bash runs", async () => {
  // Each of these runs exactly `npm test` or `git status`; the parser reads them as bash does.
  const cases: [string, string][] = [
    ["'npm' test", "npm test"],
    ['n"pm" test', "npm test"],
    ["npm 'test'", "npm test"],
    ["npm te\\st", "npm test"],
    ["(npm test)", "npm test"],
    ["{ npm test; }", "npm test"],
    ["! npm test", "npm test"],
    ["npm test 2>&1", "npm test"],
    ["npm test $HOME", "npm test"],
    // Expansions give npm test arguments, never another command.
    ["npm test ${IFS}x", "npm test"],
    ["npm run 'build'", "npm run build"],
    ["echo 'a; b' \"c && d\" e\\;f", "echo"],
  ];
  for (const [command, prefix] of cases) {
    assert.equal(await commandPrefix(command), prefix, command);
  }
});
