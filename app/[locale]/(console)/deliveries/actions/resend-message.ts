"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { outboxMessageScope } from "@/lib/auth/scope";
import { reasonInput } from "@/lib/orders/console-event";
import { resendMessage as resend, type ResendResult } from "@/lib/deliveries/resend";

const input = z.object({
  messageId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  reason: reasonInput,
  /** Made when the form opened: sending it twice (a double click, another web process) is one resend. */
  requestKey: z.uuid(),
});

/**
 * Sends a delivered or dead webhook message again: the same message, made pending for the relay,
 * with the reason in the audit fact (lib/outbox/resend.ts says why this way).
 */
export const resendMessage = defineAction(
  { name: "deliveries.resend", permission: "deliveries:send", input, scope: outboxMessageScope((v: z.output<typeof input>) => v.messageId) },
  async (v, { actor, resource }): Promise<ResendResult> => resend({ tenantId: resource.tenantId, messageId: resource.id, actor, reason: v.reason, requestKey: v.requestKey }),
);
