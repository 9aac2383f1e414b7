import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readAudit } from "@/lib/read/audit";
import { readModelResponse } from "@/lib/read/wire";

// The audit explorer's data (lib/read/audit.ts) over the caller's own products. The page hands over
// its query string whole, as `query`, and the read model reads each filter with its schema
// (lib/audit/queries/filters.ts): a bad filter — a hand-edited date, a NUL — is dropped and named
// with its problem, as the page has always said it, rather than refusing the whole page. What is not
// a query string at all (too long, a raw NUL) is a 400 naming `query`.
export const GET = staffRoute(
  { name: "console.audit", permission: "audit:view", input: z.object({ query: z.string().max(4_000).default("") }), scope: noResource },
  async ({ staff, input }) => readModelResponse(await readAudit(staff, input.query)),
);
