import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readApprovals } from "@/lib/read/approvals";
import { readModelResponse } from "@/lib/read/wire";

// The approvals page's read model (lib/read/approvals.ts): pending refund requests in the caller's
// products, for those who decide them.
export const GET = staffRoute(
  { name: "console.approvals", permission: "refunds:approve", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readApprovals(staff)),
);
