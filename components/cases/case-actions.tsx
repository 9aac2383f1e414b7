"use client";

import { useTranslations } from "next-intl";
import { Link } from "@/components/ui/link";
import { useState, useTransition } from "react";
import { assignCase } from "@/app/[locale]/(console)/queues/actions/assign-case";
import { dismissCase } from "@/app/[locale]/(console)/queues/actions/dismiss-case";
import { recordCaseRefundTold } from "@/app/[locale]/(console)/queues/actions/record-case-refund-told";
import { resendCaseRefund } from "@/app/[locale]/(console)/queues/actions/resend-case-refund";
import { resolveCase } from "@/app/[locale]/(console)/queues/actions/resolve-case";
import { takeCase } from "@/app/[locale]/(console)/queues/actions/take-case";
import { DialogButton } from "@/components/orders/action-dialog";
import { useRefreshView } from "@/components/query-provider";
import { useDescribeProblem } from "@/components/orders/names";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import type { ActionResult } from "@/lib/auth/action";
import type { PublicError } from "@/lib/errors";
import type { CaseOffer } from "@/lib/cases/offers";
import type { RefundControls } from "@/lib/cases/refund-reach";
import type { CaseView } from "@/lib/cases/view";
import type { Assignee } from "@/lib/cases/queries/assignees";
import { CaseDialog } from "./case-dialog";
import { useCaseNotice } from "./case-notice";
import { useCaseReasons } from "./case-reasons";
import { useMoney } from "./case-text";
import { ResolveOutcome } from "./resolve-outcome";

export interface CaseActionsProps {
  readonly view: CaseView;
  /** Staff who work cases (the assign form offers those of the case's product). */
  readonly assignees: readonly Assignee[];
  /** Who is looking ("staff:<email>"): not offered as an assignee of their own case. */
  readonly me: string;
}

/**
 * What the viewer can do with a case: take, assign, each offered resolution, what to do about a
 * refund that has not reached the channel, dismiss — or, in words, why not.
 */
export function CaseActions({ view, assignees, me }: CaseActionsProps) {
  // The product's canned reasons for case actions (settings), given by the page (CaseReasonsProvider).
  const cannedReasons = useCaseReasons(view.tenantId);
  const t = useTranslations("cases.actions");
  const describe = useDescribeProblem();
  const { controls } = view;
  const dismiss = controls.offers.find((o) => o.kind === "dismiss");
  const offers = controls.offers.filter((o) => o.kind !== "dismiss");
  // After a change the view that shows the case (the queue, the order page) reads its data again.
  const refresh = useRefreshView();
  const done = () => void refresh();
  return (
    <div className="flex flex-wrap items-start gap-2" data-testid={`case-actions-${view.id}`}>
      {controls.take ? <OneClick caseId={view.id} testId={`case-take-${view.id}`} label={t("take")} working={t("taking")} run={() => takeCase({ caseId: view.id })} onDone={done} /> : null}
      {offers.map((offer) => (
        <OfferButton key={offer.kind} view={view} offer={offer} onDone={done} cannedReasons={cannedReasons["case-resolve"]} />
      ))}
      {controls.refund ? <RefundActions view={view} refund={controls.refund} onDone={done} cannedReasons={cannedReasons["case-refund-told"]} /> : null}
      {controls.assign ? (
        <DialogButton
          label={t("assign")}
          className="px-2 py-1 text-xs"
          dialog={(close) => (
            <AssignDialog
              view={view}
              assignees={assignees.filter((a) => a.tenantIds.includes(view.tenantId) && `staff:${a.email}` !== view.owner)}
              me={me}
              cannedReasons={cannedReasons["case-assign"]}
              onClose={() => (close(), done())}
            />
          )}
        />
      ) : null}
      {dismiss ? (
        <DialogButton label={t("dismiss")} className="px-2 py-1 text-xs" dialog={(close) => <DismissDialog view={view} cannedReasons={cannedReasons["case-dismiss"]} onClose={() => (close(), done())} />} />
      ) : null}
      {controls.blocked ? (
        <p className="text-xs text-slate-600" data-testid={`case-blocked-${view.id}`}>
          {describe(controls.blocked)}
        </p>
      ) : null}
    </div>
  );
}

/** A one-click action (take, resend): its failure beside the button, in words. */
function OneClick<T>({ caseId, testId, label, working, run, onDone }: { caseId: number; testId: string; label: string; working: string; run: () => Promise<ActionResult<T>>; onDone: () => void }) {
  const t = useTranslations("cases.actions");
  const [error, setError] = useState<PublicError | null>(null);
  const [pending, start] = useTransition();
  return (
    <span className="inline-flex flex-col gap-1" data-case={caseId}>
      <Button
        className="px-2 py-1 text-xs"
        disabled={pending}
        data-testid={testId}
        onClick={() =>
          start(async () => {
            const result = await run();
            setError(result.ok ? null : result.error);
            onDone();
          })
        }
      >
        {pending ? working : label}
      </Button>
      {error ? <Alert tone="error">{t("failed", { message: error.message })}</Alert> : null}
    </span>
  );
}

/**
 * A refund that has not reached the channel: send it again once a webhook can carry it, or record
 * that the channel was told another way. Without a webhook, the resend is not offered and the row
 * says what it waits for.
 */
function RefundActions({ view, refund, onDone, cannedReasons }: { view: CaseView; refund: RefundControls; onDone: () => void; cannedReasons: readonly string[] | undefined }) {
  const t = useTranslations("cases.refund");
  const notify = useCaseNotice();
  const resend = async () => {
    const result = await resendCaseRefund({ caseId: view.id, refundId: refund.refundId });
    if (result.ok) {
      notify({
        caseId: view.id,
        body: <Alert tone={result.data.result === "resent" ? "success" : "info"}>{result.data.result === "resent" ? t("resent", { refundId: refund.refundId }) : t("already", { refundId: refund.refundId })}</Alert>,
      });
    }
    return result;
  };
  return (
    <>
      {refund.resend === "ready" ? (
        <OneClick caseId={view.id} testId={`case-refund-resend-${view.id}`} label={t("resend")} working={t("resending")} run={resend} onDone={onDone} />
      ) : null}
      {refund.recordTold ? (
        <DialogButton
          label={t("recordTold")}
          className="px-2 py-1 text-xs"
          dialog={(close) => (
            <CaseDialog
              caseId={view.id}
              title={t("toldTitle", { refundId: refund.refundId })}
              intro={t("toldIntro", { refundId: refund.refundId })}
              reasonLabel={t("toldReason")}
              cannedReasons={cannedReasons}
              confirmLabel={t("toldConfirm")}
              confirmTestId="case-confirm-refund-told"
              send={(form) => recordCaseRefundTold({ caseId: view.id, refundId: refund.refundId, reason: String(form.get("reason") ?? "") })}
              outcome={(data) => <Alert tone={data.result === "told" ? "success" : "info"}>{data.result === "told" ? t("told", { refundId: refund.refundId }) : t("already", { refundId: refund.refundId })}</Alert>}
              onClose={() => (close(), onDone())}
            />
          )}
        />
      ) : null}
      {refund.resend === "needs-webhook" ? (
        <p className="text-xs text-slate-600" data-testid={`case-refund-needs-webhook-${view.id}`}>
          {t("needsWebhook")}
        </p>
      ) : null}
      {refund.configureWebhook ? (
        <Link href={`/settings#webhook-${view.tenantId}`} className="self-center text-xs underline underline-offset-2" data-testid={`case-refund-configure-webhook-${view.id}`}>
          {t("configureWebhook")}
        </Link>
      ) : null}
    </>
  );
}

function OfferButton({ view, offer, onDone, cannedReasons }: { view: CaseView; offer: Exclude<CaseOffer, { kind: "dismiss" }>; onDone: () => void; cannedReasons: readonly string[] | undefined }) {
  const t = useTranslations("cases.offers");
  const money = useMoney();
  const label =
    offer.kind === "refund" || offer.kind === "accept-and-refund-difference" ? t(`${offer.kind}.label`, { amount: money(offer.amount, offer.currency) }) : t(`${offer.kind}.label`);
  return (
    <DialogButton
      label={label}
      variant="primary"
      className="px-2 py-1 text-xs"
      dialog={(close) => <ResolveDialog view={view} offer={offer} cannedReasons={cannedReasons} onClose={() => (close(), onDone())} />}
    />
  );
}

function offerIntro(
  t: ReturnType<typeof useTranslations<"cases.offers">>,
  money: ReturnType<typeof useMoney>,
  view: CaseView,
  offer: Exclude<CaseOffer, { kind: "dismiss" }>,
): string {
  switch (offer.kind) {
    case "refund":
    case "accept-and-refund-difference": {
      const intro = t(`${offer.kind}.intro`, { amount: money(offer.amount, offer.currency), txn: view.bizKey });
      // Still offered without a webhook (the refund holds the money against the payment, and the
      // channel can be told another way), but the person is told first that nothing will carry it.
      return view.webhookSet ? intro : `${intro} ${t("refund.noWebhook")}`;
    }
    case "honour":
      return t("honour.intro", { txn: view.bizKey });
    case "repair":
      return t("repair.intro");
    case "compensate":
      return t("compensate.intro", { lines: offer.lines.map((l) => `${l.sku} × ${l.quantity}`).join(", ") });
    case "retry-take-back":
      // Still offered without an endpoint (one may be set meanwhile), but the person is told first.
      return offer.endpointSet ? t("retry-take-back.intro") : `${t("retry-take-back.intro")} ${t("retry-take-back.noEndpoint", { endpoint: offer.endpoint })}`;
  }
}

function ResolveDialog({ view, offer, cannedReasons, onClose }: { view: CaseView; offer: Exclude<CaseOffer, { kind: "dismiss" }>; cannedReasons: readonly string[] | undefined; onClose: () => void }) {
  const t = useTranslations("cases.offers");
  const a = useTranslations("cases.actions");
  const money = useMoney();
  return (
    <CaseDialog
      caseId={view.id}
      title={t(`${offer.kind}.title`, { id: view.id })}
      intro={offerIntro(t, money, view, offer)}
      reasonLabel={a("reason")}
      cannedReasons={cannedReasons}
      confirmLabel={a("confirm")}
      confirmTestId={`case-confirm-${offer.kind}`}
      send={(form, requestKey) => resolveCase({ caseId: view.id, resolution: offer.kind, reason: String(form.get("reason") ?? ""), requestKey })}
      outcome={(outcome) => <ResolveOutcome outcome={outcome} tenant={view.tenantId} />}
      onClose={onClose}
    />
  );
}

function DismissDialog({ view, cannedReasons, onClose }: { view: CaseView; cannedReasons: readonly string[] | undefined; onClose: () => void }) {
  const t = useTranslations("cases.actions");
  return (
    <CaseDialog
      caseId={view.id}
      title={t("dismissTitle", { id: view.id })}
      intro={t("dismissIntro")}
      reasonLabel={t("reason")}
      cannedReasons={cannedReasons}
      confirmLabel={t("confirm")}
      confirmTestId="case-confirm-dismiss"
      send={(form, requestKey) => dismissCase({ caseId: view.id, reason: String(form.get("reason") ?? ""), requestKey })}
      outcome={(outcome) => <Alert tone={outcome.result === "dismissed" ? "success" : "info"}>{outcome.result === "dismissed" ? t("dismissed") : t("duplicate")}</Alert>}
      onClose={onClose}
    />
  );
}

function AssignDialog({
  view,
  assignees,
  me,
  cannedReasons,
  onClose,
}: {
  view: CaseView;
  assignees: readonly Assignee[];
  me: string;
  cannedReasons: readonly string[] | undefined;
  onClose: () => void;
}) {
  const t = useTranslations("cases.actions");
  // Fixed when the form opens: a live refresh that changes the case's owner (and so the list) must
  // not move the selection under the person's hand, and the owner sent is the one the form saw.
  const [shown] = useState(() => ({ choices: assignees, owner: view.owner, initial: assignees.find((a) => `staff:${a.email}` !== me)?.email }));
  return (
    <CaseDialog
      caseId={view.id}
      title={t("assignTitle", { id: view.id })}
      reasonLabel={t("reason")}
      cannedReasons={cannedReasons}
      confirmLabel={t("confirm")}
      confirmTestId="case-confirm-assign"
      fields={[
        {
          name: "assignee",
          label: t("assignee"),
          control: (props) => (
            <Select {...props} required defaultValue={shown.initial}>
              {shown.choices.map((a) => (
                <option key={a.email} value={a.email}>
                  {a.name} · {a.email}
                </option>
              ))}
            </Select>
          ),
        },
      ]}
      send={(form) =>
        assignCase({ caseId: view.id, assignee: String(form.get("assignee") ?? ""), expectedOwner: shown.owner ?? "", reason: String(form.get("reason") ?? "") })
      }
      outcome={(outcome) => <Alert tone="success">{t("assigned", { owner: outcome.owner.replace(/^staff:/, "") })}</Alert>}
      onClose={onClose}
    />
  );
}
