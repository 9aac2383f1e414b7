// How an order was paid, as support is asked about it: the channel and its transaction id. The pay
// transition holds both — its bizKey is the channel's transaction id (DESIGN.md), its actor the
// caller: `channel:alipay` for a channel callback, `apikey:<tenant>/<key name>` for a channel that
// calls the integration API with its own key (named after it: `alipay`). A late payment honoured
// by a case (lib/cases/resolve-money.ts) is paid on its new order by the staff member who resolved
// the case: the channel is then the one that sent the payment to the original order. Pure.
import type { TransitionRecord } from "./types";

/** Where an honoured order's payment came from: the order it reached first, the case about it, who sent it. */
export interface PaymentOrigin {
  readonly orderNo: string;
  readonly caseId: number;
  /** The case's reporter: the channel's callback or API key that sent the payment. */
  readonly sentBy: string;
}

export interface PaymentFacts {
  /** `alipay` for `channel:alipay` or `apikey:xiaoxiao/alipay`; null when staff recorded it by hand and nothing names the channel. */
  readonly channel: string | null;
  /** Who recorded it, as stored. */
  readonly actor: string;
  /** Staff recorded it (a manual pay, or a case honouring a late payment): said beside the channel. */
  readonly recordedByStaff: boolean;
  /** The channel's payment transaction id (the pay transition's bizKey). */
  readonly transactionId: string;
  readonly at: Date;
  /** Set on an order made to honour a late payment: the order the payment reached first. */
  readonly honours: PaymentOrigin | null;
}

const CHANNEL = /^channel:(.+)$/;
const API_KEY = /^apikey:[^/]+\/(.+)$/;

/** The payment channel an actor speaks for, or null (staff, the game, a job). */
export function channelOfActor(actor: string): string | null {
  return (CHANNEL.exec(actor) ?? API_KEY.exec(actor))?.[1] ?? null;
}

export function paymentOf(transitions: readonly TransitionRecord[], origin: PaymentOrigin | null = null): PaymentFacts | null {
  const pay = transitions.find((t) => t.event === "pay");
  if (!pay) return null;
  return {
    channel: channelOfActor(pay.actor) ?? (origin ? channelOfActor(origin.sentBy) : null),
    actor: pay.actor,
    recordedByStaff: pay.actor.startsWith("staff:"),
    transactionId: pay.bizKey,
    at: pay.at,
    honours: origin,
  };
}
