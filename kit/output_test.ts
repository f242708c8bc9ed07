import assert from "node:assert/strict";
import {
  clearStatus,
  divertOutput,
  writeErr,
  writeFrame,
  writeOut,
  writeStatus,
} from "./output.ts";
import { replaceSurroundings } from "./surroundings.ts";

function capture(terminal = true) {
  const written: string[] = [];
  const stream = {
    writeSync: (bytes: Uint8Array) => void written.push(new TextDecoder().decode(bytes)),
    isTerminal: () => terminal,
  };
  const restore = replaceSurroundings({
    env: () => undefined,
    environment: () => ({}),
    cwd: () => "/",
    stdin: { isTerminal: () => false, readable: () => ReadableStream.from([]) },
    stdout: stream,
    stderr: stream,
  });
  return { written, restore };
}

Deno.test("while the chat draws, text for stdout and stderr goes to its transcript, neutralised", () => {
  const { written, restore } = capture();
  const diverted: string[] = [];
  try {
    const stop = divertOutput((text) => diverted.push(text));
    writeErr("hel: warning: \x1b[2Jgone\n");
    writeOut("out\x07\n");
    writeFrame("\x1b[2K\x1b[1Aframe");
    stop();
    writeErr("after\n");
  } finally {
    restore();
  }
  assert.deepEqual(diverted, ["hel: warning: \\u001b[2Jgone\n", "out\\u0007\n"]);
  // The chat's frames are hel's own drawing and go out as they are; after the chat, stderr again.
  assert.deepEqual(written, ["\x1b[2K\x1b[1Aframe", "after\n"]);
});

Deno.test("a status line is rewritten in place on a terminal and erased by the next output", () => {
  const { written, restore } = capture();
  try {
    writeStatus("retry 1 \x1b[8m");
    writeStatus("retry 2");
    writeOut("answer\n");
    writeStatus("retry 3");
    clearStatus();
    clearStatus(); // nothing shown: nothing to erase
  } finally {
    restore();
  }
  assert.deepEqual(written, [
    "\r\x1b[2Kretry 1 \\u001b[8m",
    "\r\x1b[2Kretry 2",
    "\r\x1b[2K",
    "answer\n",
    "\r\x1b[2Kretry 3",
    "\r\x1b[2K",
  ]);
});

Deno.test("off a terminal a status is an ordinary line", () => {
  const { written, restore } = capture(false);
  try {
    writeStatus("retry 1");
    writeStatus("retry 2");
    writeErr("done\n");
  } finally {
    restore();
  }
  assert.deepEqual(written, ["retry 1\n", "retry 2\n", "done\n"]);
});
