// A case as the console shows it: its facts (less the raw detail), the plain explanation and what
// the viewer can do with it. Pure; built on the server, sent to the browser as JSON.
import type { CaseFacts } from "./facts";
import { explainCase, type CaseExplanation } from "./explain";
import { caseControls, type CaseControls, type Viewer } from "./offers";

export interface CaseView extends Omit<CaseFacts, "detail"> {
  readonly explanation: CaseExplanation;
  readonly controls: CaseControls;
}

const NO_CONTROLS: CaseControls = { take: false, assign: false, offers: [], blocked: null };

/** `viewer` null: shown to nobody in particular (benchmarks, exports) — no controls. */
export function caseView(facts: CaseFacts, viewer: Viewer | null): CaseView {
  const { detail: _detail, ...rest } = facts;
  return { ...rest, explanation: explainCase(facts), controls: viewer ? caseControls(facts, viewer) : NO_CONTROLS };
}
