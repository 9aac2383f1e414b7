import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ApprovalDecision } from "@/components/approvals/approval-decision";
import { RefusedRefunds } from "@/components/orders/order-summary";
import { StateBadge } from "@/components/orders/state-badge";
import { TakeBackPreview } from "@/components/orders/take-back-preview";
import { takeBackPreview } from "@/lib/orders/take-back-preview";
import { Breakable } from "@/components/ui/breakable";
import { Time } from "@/components/ui/time";
import { listPendingApprovals } from "@/lib/approvals/refund-approvals";
import { refusedRefundsByApproval } from "@/lib/approvals/refused-refunds";
import { takeBackFactsByApproval, type ApprovalTakeBackFacts } from "@/lib/approvals/take-back-facts";
import { requireStaff } from "@/lib/auth/page";
import { actorOf } from "@/lib/auth/staff";
import { formatMoney } from "@/lib/format";
import { isOrderState } from "@/lib/orders/machine";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("approvals"))("title") };
}

function ApprovalTakeBack({ facts }: { facts: ApprovalTakeBackFacts | undefined }) {
  if (!facts) return null;
  return <TakeBackPreview preview={{ lines: takeBackPreview(facts.lines, facts.rules), revokeEndpointSet: facts.revokeEndpointSet }} />;
}

export default async function ApprovalsPage() {
  const staff = await requireStaff("refunds:approve");
  const t = await getTranslations("approvals");
  const locale = await getLocale();
  const pending = await listPendingApprovals(staff.tenantIds);
  const ids = pending.map((a) => a.id);
  const [refused, takeBacks] = await Promise.all([refusedRefundsByApproval(ids), takeBackFactsByApproval(ids)]);
  const me = actorOf(staff);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      </div>
      {pending.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-6 text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="space-y-3">
          {pending.map((a) => (
            <li key={a.id} className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-2" data-testid={`approval-${a.orderNo}`}>
              <div className="space-y-3">
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-500">{t("order")}</dt>
                  <dd>
                    <Link className="font-mono underline" href={`/orders/${a.tenantId}/${encodeURIComponent(a.orderNo)}`}>
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
                <ApprovalTakeBack facts={takeBacks.get(a.id)} />
              </div>
              <div className="space-y-3">
                <RefusedRefunds refused={refused.get(a.id) ?? []} compact />
                {a.requestedBy === me ? <p className="text-sm text-slate-600">{t("own")}</p> : <ApprovalDecision id={a.id} refusedBefore={refused.get(a.id)?.length ?? 0} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
