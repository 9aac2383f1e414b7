import { useLocale, useTranslations } from "next-intl";
import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { PlayerLink } from "@/components/players/player-link";
import { Breakable } from "@/components/ui/breakable";
import { CopyButton } from "@/components/ui/copy-button";
import { Time } from "@/components/ui/time";
import { formatMoney } from "@/lib/format";
import { assertNever, type OrderState } from "@/lib/orders/machine";
import type { PaymentFacts } from "@/lib/orders/payment";
import type { PendingRefundApproval, RefusedRefund } from "@/lib/orders/refund-history";
import type { Dwell } from "@/lib/orders/stuck";
import type { OrderSnapshot } from "@/lib/orders/types";
import { orderHref } from "@/lib/http/record-pages";
import { useFormatDuration } from "./orders-duration";

// The order page's header facts: what an agent is asked about first (product, when, how it was
// paid, how much, who), and the flags that change what they should do (stuck, a refund already
// waiting for a manager, refunds refused before). Works in server components.

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export function OrderFacts({ order, tenantName, createdAt, payment }: { order: OrderSnapshot; tenantName: string; createdAt: Date; payment: PaymentFacts | null }) {
  const t = useTranslations("orderPage");
  const locale = useLocale();
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-3">
      <Fact label={t("product")}>
        {tenantName} <span className="font-mono text-xs text-slate-500">{order.tenantId}</span>
      </Fact>
      <Fact label={t("created")}>
        <Time value={createdAt} />
      </Fact>
      <Fact label={t("amount")}>
        <span className="font-medium tabular-nums">{formatMoney(order.amount, order.currency, locale)}</span>
      </Fact>
      <Fact label={t("player")}>
        <PlayerLink tenantId={order.tenantId} playerId={order.playerId} />
      </Fact>
      <Fact label={t("paymentChannel")}>
        {payment === null ? (
          <span className="text-slate-500">{t("notPaid")}</span>
        ) : (
          <>
            {payment.channel !== null ? (
              <span className="font-mono" data-testid="payment-channel">
                {payment.channel}
              </span>
            ) : (
              <span className="text-slate-500">{t("channelUnknown")}</span>
            )}
            {payment.recordedByStaff ? (
              <span className="block text-xs text-slate-600" data-testid="payment-recorded-by">
                {t("paymentRecordedBy")} <span className="font-mono">{payment.actor}</span>
              </span>
            ) : null}
          </>
        )}
      </Fact>
      <Fact label={t("paymentTransactionId")}>
        {payment === null ? (
          <span className="text-slate-500">—</span>
        ) : (
          <span className="inline-flex items-baseline gap-1">
            <span className="font-mono" data-testid="payment-transaction-id">
              <Breakable text={payment.transactionId} />
            </span>
            <CopyButton value={payment.transactionId} />
          </span>
        )}
      </Fact>
      {payment?.honours ? (
        <div className="col-span-2 md:col-span-3" data-testid="payment-honours">
          <dt className="text-xs text-slate-500">{t("honoursTitle")}</dt>
          <dd className="mt-0.5 text-sm text-slate-900">
            {t.rich("honours", {
              order: () => (
                <Link href={orderHref(order.tenantId, payment.honours!.orderNo)} className="font-mono underline underline-offset-2">
                  <Breakable text={payment.honours!.orderNo} />
                </Link>
              ),
              caseId: payment.honours.caseId,
            })}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** "In paid for 3 hours — stuck: the limit is 5 minutes", or just the time in state. */
export function DwellFlag({ state, stateAt, dwell }: { state: OrderState; stateAt: Date; dwell: Dwell }) {
  const t = useTranslations("orderPage");
  const states = useTranslations("state");
  const duration = useFormatDuration();
  const inState = t("inStateFor", { state: states(state), duration: duration(dwell.secondsInState) });
  if (!dwell.stuck || dwell.maxDwellSeconds === null) {
    return (
      <p className="mt-3 text-sm text-slate-600">
        {inState} · {t("since")} <Time value={stateAt} secondsAgo={dwell.secondsInState} />
      </p>
    );
  }
  return (
    <p className="mt-3 flex flex-wrap items-baseline gap-x-2 text-sm text-red-800" data-testid="stuck-flag">
      <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold uppercase tracking-wide">{t("stuck")}</span>
      <span>{t("stuckFor", { state: states(state), duration: duration(dwell.secondsInState), limit: duration(dwell.maxDwellSeconds) })}</span>
      <span className="text-red-700">
        · {t("since")} <Time value={stateAt} secondsAgo={dwell.secondsInState} />
      </span>
    </p>
  );
}

/** A refund request already waits for a manager: a second agent should not ask again. */
export function PendingApprovalBanner({ approval, canApprove }: { approval: PendingRefundApproval; canApprove: boolean }) {
  const t = useTranslations("orderPage.refunds");
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="pending-approval">
      <p className="font-medium">
        {t.rich("pending", { who: () => <span className="font-mono">{approval.requestedBy}</span>, id: approval.id })} <Time value={approval.at} />
      </p>
      <p className="mt-1">{t("pendingReason", { reason: approval.reason })}</p>
      <p className="mt-1 text-amber-800">
        {t("pendingHint")}
        {canApprove ? (
          <>
            {" "}
            <Link href="/approvals" className="underline underline-offset-2">
              {t("openApprovals")}
            </Link>
          </>
        ) : null}
      </p>
    </div>
  );
}

function RefusedBy({ refusal: r }: { refusal: RefusedRefund }) {
  const t = useTranslations("orderPage.refunds");
  const receipt = (id: string) =>
    function Receipt() {
      return <span className="font-mono">{id}</span>;
    };
  switch (r.kind) {
    case "approval-rejected":
      return <>{t.rich("approvalRejected", { id: r.approvalId, who: () => <span className="font-mono">{r.by ?? "—"}</span> })}</>;
    case "channel-rejected":
      return <>{t.rich("channelRejected", { who: () => <span className="font-mono">{r.channel}</span>, receipt: receipt(r.receipt) })}</>;
    case "staff-rejected":
      return <>{t.rich("staffRejected", { who: () => <span className="font-mono">{r.by}</span>, receipt: receipt(r.receipt) })}</>;
    default:
      return assertNever(r);
  }
}

/** Refunds of this order refused before: by a manager, by the payment channel, or recorded as refused by staff. */
export function RefusedRefunds({ refused, compact = false }: { refused: readonly RefusedRefund[]; compact?: boolean }) {
  const t = useTranslations("orderPage.refunds");
  if (refused.length === 0) return null;
  return (
    <div className={`rounded-md border border-orange-300 bg-orange-50 text-sm text-orange-950 ${compact ? "px-3 py-2" : "px-4 py-3"}`} data-testid="refused-refunds">
      <p className="font-medium">{t("refusedTitle", { count: refused.length })}</p>
      <ul className="mt-1 space-y-1">
        {refused.map((r) => (
          <li key={r.kind === "approval-rejected" ? `a${r.approvalId}` : `t${r.transitionId}`}>
            <RefusedBy refusal={r} />{" "}
            <span className="text-orange-800">
              <Time value={r.at} />
            </span>
            {r.reason ? <span className="block pl-3 text-orange-900">{t("quoted", { reason: r.reason })}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
