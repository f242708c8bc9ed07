/**
 * Sampling, declined: hel declares the capability, so servers offer the tools built on it
 * instead of hiding them, and answers every `sampling/createMessage` with an error that says
 * hel does not let servers use its model. Letting a server prompt the model would let it spend
 * the person's tokens, and read or steer the conversation, outside the person's view; the spec
 * wants a person to review each request, and hel has no such review.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ClientFeature } from "./client_features.ts";
import { powerOfTen } from "./rate_limit.ts";

/** The spec's code for a sampling request the client's user rejected. */
export const SAMPLING_DECLINED_CODE = -1;

/** What a server (and, through its tool result, the model) is told. */
export const SAMPLING_DECLINED =
  "hel declined this sampling request: hel does not let MCP servers use its model, so a tool " +
  "that needs sampling cannot work in hel. Do not retry it; continue without it.";

/** The sampling feature: declared, and every request declined. */
export function samplingFeature(): ClientFeature {
  return {
    name: "sampling",
    capabilities: { sampling: {} },
    install(client, server) {
      let declined = 0;
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        if (powerOfTen(++declined)) {
          server.trace({ event: "sampling_declined", server: server.config.name, count: declined });
        }
        // Not an McpError: its message starts "MCP error -1:", and the server's SDK adds that
        // prefix again. The SDK answers with a thrown error's `code` and `message`.
        throw Object.assign(new Error(SAMPLING_DECLINED), { code: SAMPLING_DECLINED_CODE });
      });
    },
  };
}
