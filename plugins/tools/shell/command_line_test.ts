import assert from "node:assert/strict";
import { readCommandLine } from "./command_line.ts";

const HIDDEN = { words: [null] };

Deno.test("plain lines: words as bash passes them, every command of && || ; | and ( )", async () => {
  const cases: [string, (string | null)[][]][] = [
    ["npm test", [["npm", "test"]]],
    ["  npm   test\t--watch ", [["npm", "test", "--watch"]]],
    ["npm test && npm run lint", [["npm", "test"], ["npm", "run", "lint"]]],
    ["a || b; (c | d) |& e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["{ npm test; }", [["npm", "test"]]],
    ["! npm test", [["npm", "test"]]],
    ["npm test\nnpm run build", [["npm", "test"], ["npm", "run", "build"]]],
    ["'npm' \"te\"st np\\m", [["npm", "test", "npm"]]],
    ["echo 'a; rm -rf ~' \"b && c\" d\\;e", [["echo", "a; rm -rf ~", "b && c", "d;e"]]],
    ["npm test 2>&1 >/dev/null", [["npm", "test"]]],
    ["npm test $HOME ${USER} *.ts ~", [["npm", "test", null, null, null, null]]],
    ["npm test # ; rm -rf ~", [["npm", "test"]]],
  ];
  for (const [command, parts] of cases) {
    const line = await readCommandLine(command);
    assert.deepEqual(line, { parts: parts.map((words) => ({ words })), plain: true }, command);
  }
});

Deno.test("not plain: what changes what a command does, though every command is seen", async () => {
  const cases: [string, (string | null)[][]][] = [
    ["npm test $(curl x)", [["curl", "x"], ["npm", "test", null]]],
    ["npm test > ~/.bashrc", [["npm", "test"]]],
    ["npm test &", [["npm", "test"]]],
    ["PATH=. npm test", [["npm", "test"]]],
    ["f() { rm -rf ~; }; f", [["rm", "-rf", null], ["f"]]],
    ["cat <<'EOF'\n$(rm -rf ~)\nEOF", [["cat"]]],
    ["for f in *; do rm $f; done", [["rm", null]]],
  ];
  for (const [command, parts] of cases) {
    const line = await readCommandLine(command);
    assert.deepEqual(line, { parts: parts.map((words) => ({ words })), plain: false }, command);
  }
});

Deno.test("code hel cannot see adds a command with no known words", async () => {
  const cases: [string, (string | null)[][]][] = [
    ["sudo rm -rf ~", [["sudo", "rm", "-rf", null]]],
    ["bash -c 'rm -rf ~'", [["bash", "-c", "rm -rf ~"]]],
    ["find . -exec rm {} \\;", [["find", ".", "-exec", "rm", null, ";"]]],
    ["$X -rf ~", [[null, "-rf", null]]],
    ["echo $((a[$(id)]))", [["id"], ["echo", null]]],
    ["ls ${X:-y}", [["ls", null]]],
    ["[[ $X -eq 1 ]] && ls", [["ls"]]],
    ["cat <<EOF | sh\nrm -rf ~\nEOF", [["cat"], ["sh"]]],
    ["cat <<EOF\n`id`\nEOF", [["cat"]]],
    ["npm test\\\nx", [["npm", "test", "x"]]],
    ["npm test\r\nrm", [["npm", "test"], ["rm"]]],
    ["{rm,-rf,/}", []],
    ["npm test 'unterminated", [["npm", "test"]]],
  ];
  for (const [command, parts] of cases) {
    const line = await readCommandLine(command);
    assert.equal(line.plain, false, command);
    assert.deepEqual(line.parts.at(-1), HIDDEN, command);
    assert.deepEqual(line.parts.slice(0, -1), parts.map((words) => ({ words })), command);
  }
});

Deno.test("every shell given code hides what it runs, not only bash, sh, dash, ksh and zsh", async () => {
  for (const shell of ["ash", "csh", "tcsh", "mksh", "rbash", "yash", "oksh", "toybox", "sg"]) {
    const line = await readCommandLine(`${shell} -c 'rm -rf ~'`);
    assert.equal(line.plain, false, shell);
    assert.deepEqual(line.parts.at(-1), HIDDEN, shell);
  }
});
