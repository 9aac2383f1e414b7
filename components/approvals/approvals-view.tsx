"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { ApprovalDecision } from "@/components/approvals/approval-decision";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefusedRefunds } from "@/components/orders/order-summary";
import { StateBadge } from "@/components/orders/state-badge";
import { TakeBackPreview } from "@/components/orders/take-back-preview";
import { Breakable } from "@/components/ui/breakable";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Time } from "@/components/ui/time";
import { formatMoney } from "@/lib/format";
import { isOrderState } from "@/lib/orders/machine";
import type { ApprovalCard, ApprovalsModel } from "@/lib/read/approvals";
import { readModel } from "@/lib/read/wire";
import { orderHref } from "@/lib/http/record-pages";

const APPROVALS_KEY = ["approvals"] as const;

/**
 * Refund requests waiting for a second person (lib/read/approvals.ts, /api/console/approvals). A
 * decision reads the list again; the card decided here stays, with its outcome, until the next visit
 * (the list no longer holds it), so the manager sees what their click did.
 */
export function ApprovalsView() {
  const t = useTranslations("approvals");
  const queryClient = useQueryClient();
  const [decided, setDecided] = useState<readonly ApprovalCard[]>([]);
  const { data: m, error } = useQuery({
    queryKey: APPROVALS_KEY,
    queryFn: ({ signal }) => readModel<ApprovalsModel>("/api/console/approvals", signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/approvals", "refunds:approve");
  if (!m) return <ApprovalsLoading />;
  const listed = new Set(m.pending.map((a) => a.id));
  // Oldest first, as the list is, the cards decided here in their places.
  const cards = [...m.pending, ...decided.filter((a) => !listed.has(a.id))].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  const onDecided = (card: ApprovalCard) => {
    setDecided((kept) => [...kept.filter((a) => a.id !== card.id), card]);
    void queryClient.invalidateQueries({ queryKey: APPROVALS_KEY });
  };
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      </div>
      {cards.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-6 text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="space-y-3">
          {cards.map((a) => (
            <ApprovalItem key={a.id} approval={a} onDecided={() => onDecided(a)} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ApprovalItem({ approval: a, onDecided }: { approval: ApprovalCard; onDecided: () => void }) {
  const t = useTranslations("approvals");
  const locale = useLocale();
  return (
    <li className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-2" data-testid={`approval-${a.orderNo}`}>
      <div className="space-y-3">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">{t("order")}</dt>
          <dd>
            <Link className="font-mono underline" href={orderHref(a.tenantId, a.orderNo)}>
              <Breakable text={a.orderNo} />
            </Link>{" "}
            <span className="font-mono text-xs text-slate-500">{a.tenantId}</span>{" "}
            {isOrderState(a.state) ? <StateBadge state={a.state} /> : <span className="font-mono text-xs">{a.state}</span>}
          </dd>
          <dt className="text-slate-500">{t("amount")}</dt>
          <dd>{formatMoney(a.amount, a.currency, locale)}</dd>
          <dt className="text-slate-500">{t("requestedBy")}</dt>
          <dd className="font-mono text-xs">{a.requestedBy}</dd>
          <dt className="text-slate-500">{t("reason")}</dt>
          <dd>{a.reason}</dd>
          <dt className="text-slate-500">{t("age")}</dt>
          <dd>
            <Time value={a.createdAt} />
          </dd>
        </dl>
        {/* What approving will take back, as the agent who asked saw it before asking. */}
        {a.takeBack ? <TakeBackPreview preview={a.takeBack} /> : null}
      </div>
      <div className="space-y-3">
        <RefusedRefunds refused={a.refused} compact />
        {a.own ? <p className="text-sm text-slate-600">{t("own")}</p> : <ApprovalDecision id={a.id} refusedBefore={a.refused.length} onDecided={onDecided} />}
      </div>
    </li>
  );
}

function ApprovalsLoading() {
  const t = useTranslations("approvals");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      {Array.from({ length: 2 }, (_, i) => (
        <Placeholder key={i} className="h-48" />
      ))}
    </PageLoading>
  );
}
