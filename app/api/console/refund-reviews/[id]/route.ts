import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { refundReviewScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { readRefundReview } from "@/lib/read/refund-reviews";
import { readModelResponse } from "@/lib/read/wire";

/** The path's id as the review's, or 0 (no review has it) for anything but a plain positive integer. */
const reviewIdOf = (segment: unknown): number => (typeof segment === "string" && /^[1-9][0-9]{0,15}$/.test(segment) ? Number(segment) : 0);

// One refund review page's read model (lib/read/refund-reviews.ts). The scope rule finds the
// review's tenant: another tenant's review, or none, is 404 before the model reads anything.
export const GET = staffRoute(
  {
    name: "console.refund-review",
    permission: "orders:view",
    input: z.object({}),
    scope: refundReviewScope(({ params }: RouteRequest<unknown>) => reviewIdOf(params.id)),
  },
  async ({ staff, resource }) => {
    const model = await readRefundReview(staff, resource);
    if (!model) throw new AppError("not-found");
    return readModelResponse(model);
  },
);
