"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";

/** What a case action did, said where the cases are shown, after its dialog has closed. */
export interface CaseNotice {
  readonly caseId: number;
  /** The outcome in words (an Alert in its tone). */
  readonly body: ReactNode;
}

const NoticeContext = createContext<(notice: CaseNotice) => void>(() => undefined);

/** For a case's actions: say what was done, once the dialog that did it has closed. */
export function useCaseNotice(): (notice: CaseNotice) => void {
  return useContext(NoticeContext);
}

/**
 * Where a list of cases (the queue, the order's cases) says what the last action did: above the
 * cases, so it stays put when the case itself moves (a dismissed case leaves the queue; a resolved
 * one folds away on the order page) and the live view re-renders the rows. A polite live region, so
 * a screen reader hears it once the dialog has closed.
 */
export function CaseNoticeArea({ children }: { children: ReactNode }) {
  const t = useTranslations("cases.card");
  const [notice, setNotice] = useState<CaseNotice | null>(null);
  return (
    <NoticeContext.Provider value={setNotice}>
      <div role="status" aria-live="polite" data-testid="case-notice">
        {notice ? (
          <div className="mb-3 space-y-1" data-case={notice.caseId}>
            <p className="text-xs font-medium text-slate-700">{t("label", { id: notice.caseId })}</p>
            {notice.body}
          </div>
        ) : null}
      </div>
      {children}
    </NoticeContext.Provider>
  );
}
