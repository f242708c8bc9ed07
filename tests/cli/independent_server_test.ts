/**
 * hel against an OpenAI-compatible server that is not the project's own fixture: aimock
 * (`@copilotkit/aimock` from npm), serving fixtures that gate each step on the previous tool
 * result. A multi-step tool trajectory must complete, streaming and non-streaming, and every
 * request hel sent must be a well-formed Chat Completions request.
 */
import assert from "node:assert/strict";
import { inNewProcessGroup, signalProcessGroup } from "../../kit/process/group.ts";
import { REPO_ROOT, runHel, tempProject } from "../_helpers.ts";

const AIMOCK = "@copilotkit/aimock@1.43.0";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function startAimock(fixtures: string) {
  const port = freePort();
  const [command, args] = inNewProcessGroup("npx", [
    "--yes",
    "-p",
    AIMOCK,
    "llmock",
    "--port",
    String(port),
    "--fixtures",
    fixtures,
    "--strict",
    "--log-level",
    "warn",
  ]);
  const child = new Deno.Command(command, { args, stdout: "null", stderr: "piped" }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const response = await fetch(`${url}/__aimock/journal`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    async journal(): Promise<{ body: Record<string, unknown>; response: { status: number } }[]> {
      return await (await fetch(`${url}/__aimock/journal`)).json();
    },
    async [Symbol.asyncDispose]() {
      signalProcessGroup(child.pid, "SIGTERM");
      await child.stderr.cancel();
      await child.status;
    },
  };
}

for (const stream of [true, false]) {
  Deno.test({
    name: `a read → edit trajectory completes against the independent server (${
      stream ? "streaming" : "non-streaming"
    })`,
    sanitizeResources: false,
    async fn() {
      await using project = await tempProject({ "greeting.txt": "Hello, wrold!\n" });
      await using server = await startAimock(
        `${REPO_ROOT}/fixtures/independent_server/typo_fix.json`,
      );
      const result = await runHel([
        "--base-url",
        `${server.url}/v1`,
        "--model",
        "m",
        "--access",
        "auto",
        ...(stream ? [] : ["--no-stream"]),
        "Fix the typo in greeting.txt",
      ], { cwd: project.project });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "Fixed the typo in greeting.txt.\n");
      assert.equal(await project.read("greeting.txt"), "Hello, world!\n");

      const journal = (await server.journal()).filter((entry) =>
        String((entry as { path?: string }).path).endsWith("/chat/completions")
      );
      assert.equal(journal.length, 3);
      for (const entry of journal) {
        assert.equal(entry.response.status, 200);
        const body = entry.body;
        assert.equal(body.model, "m");
        assert.equal(body.stream ?? false, stream);
        const messages = body.messages as Record<string, unknown>[];
        assert.equal(messages[0]!.role, "system");
        for (const message of messages) {
          assert.ok(["system", "user", "assistant", "tool"].includes(String(message.role)));
          if (message.role === "tool") assert.equal(typeof message.tool_call_id, "string");
        }
        for (const tool of body.tools as Record<string, unknown>[]) {
          assert.equal(tool.type, "function");
          const fn = tool.function as Record<string, unknown>;
          assert.equal(typeof fn.name, "string");
          assert.equal((fn.parameters as Record<string, unknown>).type, "object");
        }
      }
      // Each tool message answers the call made just before it, by id.
      const last = journal[2]!.body.messages as Record<string, unknown>[];
      const calls = last.filter((m) => m.role === "assistant").flatMap((m) =>
        (m.tool_calls as { id: string }[]) ?? []
      );
      const answers = last.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      assert.deepEqual(answers, calls.map((c) => c.id));
    },
  });
}
