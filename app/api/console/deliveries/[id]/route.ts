import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { outboxMessageScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { readDelivery } from "@/lib/read/deliveries";
import { readModelResponse } from "@/lib/read/wire";

/** The path's id as the message's, or 0 (no message has it) for anything but a plain positive integer. */
const messageIdOf = (segment: unknown): number => (typeof segment === "string" && /^[1-9][0-9]{0,15}$/.test(segment) ? Number(segment) : 0);

// One delivery's read model (lib/read/deliveries.ts). The scope rule finds the message's tenant:
// another tenant's message, or none, is 404 before the model reads anything.
export const GET = staffRoute(
  {
    name: "console.delivery",
    permission: "deliveries:view",
    input: z.object({}),
    scope: outboxMessageScope(({ params }: RouteRequest<unknown>) => messageIdOf(params.id)),
  },
  async ({ staff, resource }) => {
    const model = await readDelivery(staff, resource);
    if (!model) throw new AppError("not-found");
    return readModelResponse(model);
  },
);
