import assert from "node:assert/strict";
import { divertOutput, writeErr, writeFrame, writeOut } from "./output.ts";
import { replaceSurroundings } from "./surroundings.ts";

function capture() {
  const written: string[] = [];
  const stream = {
    writeSync: (bytes: Uint8Array) => void written.push(new TextDecoder().decode(bytes)),
    isTerminal: () => true,
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
