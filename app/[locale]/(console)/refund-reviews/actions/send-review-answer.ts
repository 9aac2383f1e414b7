"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { refundReviewScope } from "@/lib/auth/scope";
import { REFUND_PREFERENCE } from "@/lib/stores/reviews/apple-answer";
import { sendReviewAnswer } from "@/lib/stores/reviews/send-answer";

const input = z.object({
  reviewId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The agent confirms the player agreed, in the app, to share consumption data. */
  customerConsented: z.boolean(),
  refundPreference: z.literal(Object.values(REFUND_PREFERENCE)),
});

/**
 * Sends a store refund review's answer, prefilled from the ledger at the moment of sending, with
 * the agent's word on consent and their refund preference. Who may ask a refund may answer the
 * store's questions about one.
 */
export const sendRefundReviewAnswer = defineAction(
  { name: "refund-reviews.send", permission: "orders:event", input, scope: refundReviewScope((v: z.output<typeof input>) => v.reviewId) },
  async (v, { actor, resource }) => {
    // The page reads the review again itself (its query); nothing is rendered on the server.
    return sendReviewAnswer({ reviewId: resource.id, actor, customerConsented: v.customerConsented, refundPreference: v.refundPreference });
  },
);
