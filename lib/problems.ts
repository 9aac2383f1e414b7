// Why something was refused or is not valid, as data. The domain and the validators say *what* went
// wrong with the facts that matter; the words are chosen at the edge, in the reader's language
// (lib/i18n/describe-problem.ts: English for the API and the logs, the UI language in the console).
// Pure types.
import type { Role } from "@/lib/auth/permissions";
import type { MachineRefusal, OrderEvent, OrderState } from "@/lib/orders/machine";

export interface PendingLine {
  readonly sku: string;
  readonly granted: number;
  readonly expected: number;
}

/** Why transit() or grant() refused a change: results, not errors (DESIGN.md). */
export type Refusal =
  | MachineRefusal
  | { readonly kind: "stale-state"; readonly expected: OrderState; readonly actual: OrderState }
  | { readonly kind: "stale-version"; readonly expected: number; readonly actual: number }
  | { readonly kind: "amount-missing" }
  | { readonly kind: "amount-mismatch"; readonly paid: number; readonly expected: number; readonly currency: string }
  | { readonly kind: "lines-pending"; readonly lines: readonly PendingLine[] }
  | { readonly kind: "no-refund-rule"; readonly lines: readonly { readonly sku: string; readonly kind: string }[] }
  | { readonly kind: "over-delivery"; readonly sku: string; readonly quantity: number; readonly granted: number; readonly requested: number }
  | { readonly kind: "grant-not-allowed"; readonly state: OrderState }
  | { readonly kind: "unknown-sku"; readonly sku: string }
  | { readonly kind: "invalid-quantity" }
  | { readonly kind: "reserved-grant-id"; readonly prefix: string };

/** Why repair delivery (or a bulk item) did nothing, or stopped. */
export type RepairProblem =
  | { readonly kind: "already-delivered" }
  | { readonly kind: "not-paid" }
  | { readonly kind: "grants-closed"; readonly state: OrderState }
  | { readonly kind: "repair-running" }
  | { readonly kind: "repair-step-refused"; readonly step: "begin-delivery" | "grant" | "confirm-delivery"; readonly sku?: string; readonly refusal: Refusal }
  | { readonly kind: "order-not-found"; readonly orderNo: string };

/** Why a channel refund (lib/refunds) was refused. */
export type RefundProblem =
  /** A channel's confirm or fail on a refund that is already over (lib/refunds/model.ts). */
  | { readonly kind: "refund-settled"; readonly refundId: string; readonly status: "requested" | "sent" | "confirmed" | "failed"; readonly event: "confirm" | "fail" }
  /** What the payment still holds is less than the refund asked for (requested and sent refunds count). */
  | { readonly kind: "refund-exceeds-payment"; readonly requested: number; readonly refundable: number; readonly currency: string }
  | { readonly kind: "refund-not-found"; readonly refundId: string };

/** Why a request was refused before it reached the domain, or by a rule around it. */
export type RequestProblem =
  | { readonly kind: "not-found" }
  | { readonly kind: "event-not-for-role"; readonly event: OrderEvent; readonly roles: readonly Role[] }
  | { readonly kind: "email-taken"; readonly email: string }
  | { readonly kind: "last-admin"; readonly email: string }
  | { readonly kind: "cannot-disable-self" }
  | { readonly kind: "unknown-tenants"; readonly tenants: readonly string[] }
  | { readonly kind: "tenants-beyond-scope"; readonly tenants: readonly string[] }
  | { readonly kind: "role-beyond-own"; readonly role: Role; readonly own: Role }
  | { readonly kind: "settings-stale"; readonly tenant: string; readonly by: string | null; readonly at: string | null }
  | { readonly kind: "own-refund-request" }
  | { readonly kind: "approval-decided"; readonly status: string }
  | { readonly kind: "batch-empty" }
  | { readonly kind: "batch-too-large"; readonly max: number }
  /** A bulk resend would cover more messages than one batch takes: resend a shorter time. */
  | { readonly kind: "resend-too-large"; readonly max: number }
  | { readonly kind: "key-name-taken"; readonly tenant: string; readonly name: string }
  /** Saved views (lib/views): the list the view would appear in already has one by that name. */
  | { readonly kind: "view-name-taken"; readonly name: string }
  /** A shared view is changed by the one who saved it, or a manager. */
  | { readonly kind: "view-not-yours"; readonly creator: string }
  | { readonly kind: "api-key-required" }
  | { readonly kind: "sign-in-invalid" }
  | { readonly kind: "sign-in-locked"; readonly minutes: number }
  | { readonly kind: "invalid-json" }
  | { readonly kind: "order-differs"; readonly orderNo: string; readonly fields: readonly string[] }
  /** Cases (lib/cases): someone else works this one (owners and actors named as people read them: emails, "system:…"). */
  | { readonly kind: "case-taken"; readonly owner: string }
  | { readonly kind: "case-closed"; readonly status: "resolved" | "dismissed"; readonly by: string | null }
  /** A refund of this case is with the channel: nothing else until it answers. */
  | { readonly kind: "case-awaiting-refund"; readonly refundId: string }
  /** A refund of this case has not reached the channel, and why (lib/cases/refund-reach.ts): resend it or record that the channel was told. */
  | { readonly kind: "case-refund-not-sent"; readonly refundId: string; readonly why: "no-webhook" | "gave-up" | "no-message" }
  /** A refund of this case is still with the outbox relay, on its way to the channel. */
  | { readonly kind: "case-refund-sending"; readonly refundId: string }
  /** The refund is not in a state this action is for (resend or record-told once the channel has it). */
  | { readonly kind: "refund-not-actionable"; readonly refundId: string }
  /** Resend needs a webhook to carry it: the product has none. */
  | { readonly kind: "refund-needs-webhook"; readonly refundId: string }
  /** Only these roles work cases (take, assign, resolve): the viewer's role is not among them. */
  | { readonly kind: "cases-not-for-role"; readonly roles: readonly Role[] }
  /** The resolution is not possible for this case now (its kind, the order's state, the money left). */
  | { readonly kind: "resolution-not-offered"; readonly resolution: string }
  | { readonly kind: "dismiss-not-for-role"; readonly roles: readonly Role[] }
  | { readonly kind: "assignee-not-eligible"; readonly email: string }
  /** A store notification whose signature does not verify up to the store's pinned root (lib/stores). */
  | { readonly kind: "store-signature-invalid"; readonly reason: StoreSignatureFailure }
  /** A Google Play push whose OIDC token (Authorization: Bearer) Google did not issue for this tenant's push subscription. */
  | { readonly kind: "store-token-invalid"; readonly reason: StoreTokenFailure }
  /** Signed by the store, but for an app or environment this tenant did not connect. */
  | { readonly kind: "store-app-mismatch"; readonly field: "bundleId" | "environment" | "packageName"; readonly expected: string; readonly actual: string }
  /** The tenant has not connected its App Store app or Google Play app (settings): nothing from that store is accepted. */
  | { readonly kind: "store-not-connected"; readonly store: "appstore" | "googleplay" };

/** Why a push's OIDC token was refused: not a token, not Google's signature, expired, or not for this tenant's subscription. */
export type StoreTokenFailure = "missing" | "malformed" | "signature" | "expired" | "issuer" | "audience" | "email";

/** Why a store's signed payload was refused; one token each, so tests and logs can name it. */
export type StoreSignatureFailure =
  | "malformed"
  | "algorithm"
  | "chain-length"
  | "untrusted-root"
  | "chain-broken"
  | "not-a-ca"
  | "not-app-store-certificate"
  | "expired"
  | "signature";

/** Why one field of a form or a request body is not valid. */
export type FieldProblem =
  | { readonly kind: "required" }
  | { readonly kind: "too-short"; readonly min: number }
  | { readonly kind: "too-long"; readonly max: number }
  | { readonly kind: "too-small"; readonly min: number }
  | { readonly kind: "too-large"; readonly max: number }
  | { readonly kind: "not-a-number" }
  | { readonly kind: "not-whole" }
  | { readonly kind: "invalid-email" }
  | { readonly kind: "invalid-choice"; readonly options: readonly string[] }
  | { readonly kind: "invalid-format" }
  /** A URL we will call (the game's revoke endpoint): a full https address, no credentials in it. */
  | { readonly kind: "endpoint-url" }
  /** The webhook the outbox relay posts to: the same rule as endpoint-url, said with a webhook's example. */
  | { readonly kind: "webhook-url" }
  | { readonly kind: "invalid-date" }
  | { readonly kind: "date-range-reversed" }
  | { readonly kind: "money-format" }
  | { readonly kind: "money-too-large"; readonly max: number; readonly currency: string | null }
  | { readonly kind: "duration-too-short"; readonly seconds: number }
  | { readonly kind: "duration-too-long"; readonly seconds: number }
  | { readonly kind: "password-too-long"; readonly max: number }
  /** One line of a canned-reasons list is no valid reason (settings; lib/settings/canned-reasons.ts). */
  | { readonly kind: "canned-reason-length"; readonly line: number; readonly min: number; readonly max: number }
  | { readonly kind: "too-many-canned-reasons"; readonly max: number }
  | { readonly kind: "channel-key-required"; readonly event: OrderEvent }
  | { readonly kind: "amount-required" }
  | { readonly kind: "key-name-format" }
  | { readonly kind: "form-version-missing" }
  | { readonly kind: "page-position-unknown" }
  /** A NUL character: PostgreSQL text cannot hold it, so no input may carry one. */
  | { readonly kind: "control-characters" }
  | { readonly kind: "invalid" };

export type Problem = Refusal | RepairProblem | RefundProblem | RequestProblem | FieldProblem;
export type ProblemKind = Problem["kind"];
