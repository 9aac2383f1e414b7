// A case as the console shows it: its facts (less the raw detail), the plain explanation and what
// the viewer can do with it. Pure; built on the server, sent to the browser as JSON.
import type { CaseFacts, CaseRefund } from "./facts";
import { refundReach, type RefundReach } from "./refund-reach";
import { explainCase, type CaseExplanation } from "./explain";
import { caseControls, type CaseControls, type Viewer } from "./offers";

/** A refund as shown: its facts and where it stands (refund-reach.ts), derived once here. */
export interface CaseRefundView extends CaseRefund {
  readonly reach: RefundReach;
}

export interface CaseView extends Omit<CaseFacts, "detail" | "refunds"> {
  readonly explanation: CaseExplanation;
  readonly refunds: readonly CaseRefundView[];
  readonly controls: CaseControls;
}

const NO_CONTROLS: CaseControls = { take: false, assign: false, offers: [], refund: null, blocked: null };

/** `viewer` null: shown to nobody in particular (benchmarks, exports) — no controls. */
export function caseView(facts: CaseFacts, viewer: Viewer | null): CaseView {
  const { detail: _detail, ...rest } = facts;
  return {
    ...rest,
    explanation: explainCase(facts),
    refunds: facts.refunds.map((r) => ({ ...r, reach: refundReach(r, facts.webhookSet) })),
    controls: viewer ? caseControls(facts, viewer) : NO_CONTROLS,
  };
}
