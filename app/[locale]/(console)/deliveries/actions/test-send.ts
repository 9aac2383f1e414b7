"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { TEST_ENDPOINTS } from "@/lib/deliveries/test-endpoints";
import { testSend as send, type TestSendResult } from "@/lib/deliveries/test-send";

const input = z.object({
  tenant: z.string().trim().min(1).max(64),
  endpoint: z.enum(TEST_ENDPOINTS),
});

/** A signed ping to one of a product's endpoints, with what came back (lib/deliveries/test-send.ts). */
export const testSend = defineAction(
  { name: "deliveries.test-send", permission: "deliveries:send", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }): Promise<TestSendResult> => send({ tenantId: resource.tenantId, endpoint: v.endpoint, actor }),
);
