/**
 * Renders the live-activity components with colour on and off and writes them as JSON to the
 * file its argument names, for `colour_test.ts`, which runs it with FORCE_COLOR set: Ink's
 * colour library decides once, as it loads, whether to colour, so colour is tested in a
 * process of its own.
 *
 * @module
 */
import { renderToString } from "ink";
import type { ReactElement } from "react";
import { Footer } from "./footer.tsx";
import { Reasoning } from "./reasoning.tsx";
import { ToolActivity, type ToolActivityState } from "./tool_activity.tsx";
import { Working } from "./working.tsx";

const call = (status: ToolActivityState["status"]): ToolActivityState => ({
  callId: "c",
  name: "bash",
  summary: "npm test",
  status,
  output: "ok\n",
});

const samples: Record<string, (color: boolean) => ReactElement> = {
  working: (color) => <Working startedAt={0} now={2_000} outputTokens={12} color={color} />,
  done: (color) => <ToolActivity call={call("done")} expanded={false} color={color} width={60} />,
  failed: (color) => (
    <ToolActivity call={call("failed")} expanded={false} color={color} width={60} />
  ),
  declined: (color) => (
    <ToolActivity call={call("declined")} expanded={false} color={color} width={60} />
  ),
  reasoning: (color) => <Reasoning text="a thought" expanded={false} color={color} width={60} />,
  footer: (color) => (
    <Footer
      model="m"
      access="auto"
      contextPercent={3}
      tokens={{}}
      notice="press Ctrl-C again to exit"
      color={color}
      width={80}
    />
  ),
};

const rendered = Object.fromEntries(
  Object.entries(samples).map(([name, sample]) => [name, {
    on: renderToString(sample(true), { columns: 80 }),
    off: renderToString(sample(false), { columns: 80 }),
  }]),
);
await Deno.writeTextFile(Deno.args[0]!, JSON.stringify(rendered));
