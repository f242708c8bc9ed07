/**
 * The client features every server group of hel gets — a run's, `hel mcp list`'s and
 * `hel mcp call`'s — so a server sees the same client however it is started.
 *
 * @module
 */
import type { PluginContext } from "../../core/mod.ts";
import type { ClientFeature } from "./client_features.ts";
import { elicitation } from "./elicitation.ts";
import { loggingFeature } from "./logging.ts";
import { rootsFeature } from "./roots.ts";
import { samplingFeature } from "./sampling.ts";

/** What the features need from where the group runs. */
export interface FeatureNeeds {
  project: string;
  /** Tells the person something a server did (its error log messages, a refused question). */
  warn(text: string): void;
  /** Asks the person a server's question (elicitation); absent: no one to ask, declined. */
  askForm?: PluginContext["askForm"];
}

/** Roots (the project), sampling (declined), logging and elicitation, in that order. */
export function clientFeatures(needs: FeatureNeeds): ClientFeature[] {
  return [
    rootsFeature(needs.project),
    samplingFeature(),
    loggingFeature({ warn: needs.warn }),
    elicitation({ askForm: needs.askForm, warn: needs.warn }),
  ];
}
