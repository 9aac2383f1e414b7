// How an order was paid, as support is asked about it: the channel and its transaction id. The pay
// transition holds both — its bizKey is the channel's transaction id (DESIGN.md), its actor the
// caller: `channel:alipay` for a channel callback, `apikey:<tenant>/<key name>` for a channel that
// calls the integration API with its own key (named after it: `alipay`). Pure.
import type { TransitionRecord } from "./types";

export interface PaymentFacts {
  /** `alipay` for `channel:alipay` or `apikey:xiaoxiao/alipay`; null when staff recorded it by hand. */
  readonly channel: string | null;
  /** Who recorded it, as stored. */
  readonly actor: string;
  /** The channel's payment transaction id (the pay transition's bizKey). */
  readonly transactionId: string;
  readonly at: Date;
}

const CHANNEL = /^channel:(.+)$/;
const API_KEY = /^apikey:[^/]+\/(.+)$/;

export function paymentOf(transitions: readonly TransitionRecord[]): PaymentFacts | null {
  const pay = transitions.find((t) => t.event === "pay");
  if (!pay) return null;
  return {
    channel: (CHANNEL.exec(pay.actor) ?? API_KEY.exec(pay.actor))?.[1] ?? null,
    actor: pay.actor,
    transactionId: pay.bizKey,
    at: pay.at,
  };
}
