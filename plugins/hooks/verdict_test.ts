import assert from "node:assert/strict";
import type { CommandResult } from "./runner.ts";
import { verdictOf } from "./verdict.ts";

function ran(code: number | null, stdout = "", stderr = "", extra: Partial<CommandResult> = {}) {
  return { code, signal: null, stdout, stderr, durationMs: 1, ...extra };
}

const deny = (reason?: string) =>
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      ...(reason !== undefined ? { permissionDecisionReason: reason } : {}),
    },
  });

Deno.test("exit 2 blocks PreToolUse and gives PostToolUse feedback, from stderr", () => {
  assert.deepEqual(verdictOf("PreToolUse", ran(2, "", "no edits here\n")), {
    status: "blocked",
    reason: "no edits here",
  });
  assert.deepEqual(verdictOf("PostToolUse", ran(2, "", "run the tests\n")), {
    status: "feedback",
    reason: "run the tests",
  });
  assert.deepEqual(verdictOf("PreToolUse", ran(2, "ignored", " ")), {
    status: "blocked",
    reason: "PreToolUse hook returned a blocking decision without a reason",
  });
  assert.deepEqual(verdictOf("PostToolUse", ran(2)), {
    status: "feedback",
    reason: "PostToolUse hook returned a blocking decision without a reason",
  });
});

Deno.test("exit 0 with blank stdout continues", () => {
  assert.deepEqual(verdictOf("PreToolUse", ran(0, " \n", "chatter")), { status: "continued" });
  assert.deepEqual(verdictOf("PostToolUse", ran(0)), { status: "continued" });
});

Deno.test("PreToolUse JSON decisions: deny blocks, allow and {} continue", () => {
  assert.deepEqual(verdictOf("PreToolUse", ran(0, deny("use the formatter"))), {
    status: "blocked",
    reason: "use the formatter",
  });
  assert.deepEqual(verdictOf("PreToolUse", ran(0, deny())), {
    status: "blocked",
    reason: "PreToolUse hook returned a blocking decision without a reason",
  });
  const allow = JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
  });
  assert.deepEqual(verdictOf("PreToolUse", ran(0, allow)), { status: "continued" });
  assert.deepEqual(verdictOf("PreToolUse", ran(0, "{}")), { status: "continued" });
});

Deno.test("PostToolUse JSON decisions: block gives feedback", () => {
  assert.deepEqual(
    verdictOf("PostToolUse", ran(0, '{"decision": "block", "reason": "lint failed"}')),
    { status: "feedback", reason: "lint failed" },
  );
  assert.deepEqual(verdictOf("PostToolUse", ran(0, '{"decision": "block"}')), {
    status: "feedback",
    reason: "PostToolUse hook returned a blocking decision without a reason",
  });
  assert.deepEqual(verdictOf("PostToolUse", ran(0, "{}")), { status: "continued" });
});

Deno.test("everything else is a hook error with the reason in the message", () => {
  const cases: [Parameters<typeof verdictOf>, RegExp][] = [
    [["PreToolUse", ran(1, "", "boom")], /^exited with code 1; stderr: boom$/],
    [["PostToolUse", ran(127, "", "sh: nope: not found")], /exited with code 127.*not found/],
    [["PreToolUse", ran(null, "", "", { signal: "SIGSEGV" })], /^was killed by SIGSEGV$/],
    [
      ["PreToolUse", ran(null, "", "", { failure: "timed out after 1 seconds" })],
      /^timed out after 1 seconds$/,
    ],
    [["PreToolUse", ran(0, "not json")], /not a JSON decision/],
    [["PreToolUse", ran(0, "[1]")], /not an object/],
    [["PreToolUse", ran(0, '{"decision": "block"}')], /PreToolUse hook blocks with/],
    [["PreToolUse", ran(0, '{"continue": false}')], /unsupported field "continue"/],
    [
      [
        "PreToolUse",
        ran(
          0,
          '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}',
        ),
      ],
      /hookEventName must be "PreToolUse"/,
    ],
    [
      [
        "PreToolUse",
        ran(
          0,
          '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}',
        ),
      ],
      /unsupported permissionDecision "maybe"/,
    ],
    [
      ["PostToolUse", ran(0, deny())],
      /PostToolUse hook gives feedback with .* not with hookSpecificOutput/,
    ],
    [["PostToolUse", ran(0, '{"decision": "approve"}')], /unsupported decision "approve"/],
  ];
  for (const [[event, result], expected] of cases) {
    const verdict = verdictOf(event, result);
    assert.equal(verdict.status, "error", JSON.stringify(result));
    assert.match((verdict as { message: string }).message, expected);
  }
});

Deno.test("a long stderr is cut to its tail in error messages", () => {
  const verdict = verdictOf("PreToolUse", ran(1, "", "a".repeat(5000) + "THE END"));
  const message = (verdict as { message: string }).message;
  assert.ok(message.length < 1100, String(message.length));
  assert.ok(message.endsWith("THE END"));
});
