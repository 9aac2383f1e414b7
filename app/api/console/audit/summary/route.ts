import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readAuditSummary } from "@/lib/read/audit";
import { readModelResponse } from "@/lib/read/wire";

// The audit explorer's "who did how much" (lib/read/audit.ts), for the same `query` as the explorer
// itself, over the caller's own products: read apart, so the rows never wait for the count.
export const GET = staffRoute(
  { name: "console.audit-summary", permission: "audit:view", input: z.object({ query: z.string().max(4_000).default("") }), scope: noResource },
  async ({ staff, input }) => readModelResponse(await readAuditSummary(staff, input.query)),
);
