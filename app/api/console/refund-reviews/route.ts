import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readRefundReviews } from "@/lib/read/refund-reviews";
import { readModelResponse } from "@/lib/read/wire";

// The refund reviews list's read model (lib/read/refund-reviews.ts): the deadline queue of the
// caller's products.
export const GET = staffRoute(
  { name: "console.refund-reviews", permission: "orders:view", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readRefundReviews(staff)),
);
