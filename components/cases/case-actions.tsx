"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { assignCase } from "@/app/(console)/queues/actions/assign-case";
import { dismissCase } from "@/app/(console)/queues/actions/dismiss-case";
import { resolveCase } from "@/app/(console)/queues/actions/resolve-case";
import { takeCase } from "@/app/(console)/queues/actions/take-case";
import { ActionDialog, DialogButton } from "@/components/orders/action-dialog";
import { useDescribeProblem } from "@/components/orders/names";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";
import type { CaseOffer } from "@/lib/cases/offers";
import type { CaseView } from "@/lib/cases/view";
import type { Assignee } from "@/lib/cases/queries/assignees";
import { useMoney } from "./case-text";
import { ResolveOutcome } from "./resolve-outcome";

export interface CaseActionsProps {
  readonly view: CaseView;
  /** Staff who work cases (the assign form offers those of the case's product). */
  readonly assignees: readonly Assignee[];
  /** Who is looking ("staff:<email>"): not offered as an assignee of their own case. */
  readonly me: string;
  /** After a change: the live view fetches again. */
  readonly onChanged?: () => void;
}

/** What the viewer can do with a case: take, assign, each offered resolution, dismiss — or why not. */
export function CaseActions({ view, assignees, me, onChanged }: CaseActionsProps) {
  const t = useTranslations("cases.actions");
  const describe = useDescribeProblem();
  const { controls } = view;
  const dismiss = controls.offers.find((o) => o.kind === "dismiss");
  const offers = controls.offers.filter((o) => o.kind !== "dismiss");
  const done = () => onChanged?.();
  return (
    <div className="flex flex-wrap items-start gap-2" data-testid={`case-actions-${view.id}`}>
      {controls.take ? <TakeButton caseId={view.id} onTaken={done} /> : null}
      {offers.map((offer) => (
        <OfferButton key={offer.kind} view={view} offer={offer} onDone={done} />
      ))}
      {controls.assign ? (
        <DialogButton
          label={t("assign")}
          className="px-2 py-1 text-xs"
          dialog={(close) => <AssignDialog view={view} assignees={assignees.filter((a) => a.tenantIds.includes(view.tenantId) && `staff:${a.email}` !== view.owner)} me={me} onClose={() => (close(), done())} />}
        />
      ) : null}
      {dismiss ? (
        <DialogButton label={t("dismiss")} className="px-2 py-1 text-xs" dialog={(close) => <DismissDialog view={view} onClose={() => (close(), done())} />} />
      ) : null}
      {controls.blocked ? <p className="text-xs text-slate-600">{describe(controls.blocked)}</p> : null}
    </div>
  );
}

function TakeButton({ caseId, onTaken }: { caseId: number; onTaken: () => void }) {
  const t = useTranslations("cases.actions");
  const router = useRouter();
  const [error, setError] = useState<PublicError | null>(null);
  const [pending, start] = useTransition();
  return (
    <span className="inline-flex flex-col gap-1">
      <Button
        className="px-2 py-1 text-xs"
        disabled={pending}
        data-testid={`case-take-${caseId}`}
        onClick={() =>
          start(async () => {
            const result = await takeCase({ caseId });
            setError(result.ok ? null : result.error);
            onTaken();
            router.refresh();
          })
        }
      >
        {pending ? t("taking") : t("take")}
      </Button>
      {error ? <Alert tone="error">{t("takeFailed", { message: error.message })}</Alert> : null}
    </span>
  );
}

function OfferButton({ view, offer, onDone }: { view: CaseView; offer: Exclude<CaseOffer, { kind: "dismiss" }>; onDone: () => void }) {
  const t = useTranslations("cases.offers");
  const money = useMoney();
  const label =
    offer.kind === "refund" || offer.kind === "accept-and-refund-difference" ? t(`${offer.kind}.label`, { amount: money(offer.amount, offer.currency) }) : t(`${offer.kind}.label`);
  return (
    <DialogButton
      label={label}
      variant="primary"
      className="px-2 py-1 text-xs"
      dialog={(close) => <ResolveDialog view={view} offer={offer} onClose={() => (close(), onDone())} />}
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
    case "accept-and-refund-difference":
      return t(`${offer.kind}.intro`, { amount: money(offer.amount, offer.currency), txn: view.bizKey });
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

function ResolveDialog({ view, offer, onClose }: { view: CaseView; offer: Exclude<CaseOffer, { kind: "dismiss" }>; onClose: () => void }) {
  const t = useTranslations("cases.offers");
  const a = useTranslations("cases.actions");
  const money = useMoney();
  return (
    <ActionDialog
      title={t(`${offer.kind}.title`, { id: view.id })}
      intro={offerIntro(t, money, view, offer)}
      reasonLabel={a("reason")}
      confirmLabel={a("confirm")}
      confirmTestId={`case-confirm-${offer.kind}`}
      send={(form, requestKey) => resolveCase({ caseId: view.id, resolution: offer.kind, reason: String(form.get("reason") ?? ""), requestKey })}
      outcome={(outcome) => <ResolveOutcome outcome={outcome} tenant={view.tenantId} />}
      finished={() => true}
      onClose={onClose}
    />
  );
}

function DismissDialog({ view, onClose }: { view: CaseView; onClose: () => void }) {
  const t = useTranslations("cases.actions");
  return (
    <ActionDialog
      title={t("dismissTitle", { id: view.id })}
      intro={t("dismissIntro")}
      reasonLabel={t("reason")}
      confirmLabel={t("confirm")}
      confirmTestId="case-confirm-dismiss"
      send={(form, requestKey) => dismissCase({ caseId: view.id, reason: String(form.get("reason") ?? ""), requestKey })}
      outcome={(outcome) => <Alert tone={outcome.result === "dismissed" ? "success" : "info"}>{outcome.result === "dismissed" ? t("dismissed") : t("duplicate")}</Alert>}
      finished={() => true}
      onClose={onClose}
    />
  );
}

function AssignDialog({ view, assignees, me, onClose }: { view: CaseView; assignees: readonly Assignee[]; me: string; onClose: () => void }) {
  const t = useTranslations("cases.actions");
  return (
    <ActionDialog
      title={t("assignTitle", { id: view.id })}
      reasonLabel={t("reason")}
      confirmLabel={t("confirm")}
      confirmTestId="case-confirm-assign"
      fields={(field) =>
        field("assignee", t("assignee"), (props) => (
          <Select {...props} required defaultValue={assignees.find((a) => `staff:${a.email}` !== me)?.email}>
            {assignees.map((a) => (
              <option key={a.email} value={a.email}>
                {a.name} · {a.email}
              </option>
            ))}
          </Select>
        ))
      }
      send={(form) =>
        assignCase({ caseId: view.id, assignee: String(form.get("assignee") ?? ""), expectedOwner: view.owner ?? "", reason: String(form.get("reason") ?? "") })
      }
      outcome={(outcome) => <Alert tone="success">{t("assigned", { owner: outcome.owner.replace(/^staff:/, "") })}</Alert>}
      finished={() => true}
      onClose={onClose}
    />
  );
}
