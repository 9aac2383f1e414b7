import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { tenantScope } from "@/lib/auth/scope";
import { readPlayerPage } from "@/lib/read/player-page";
import { readModelResponse } from "@/lib/read/wire";

// The player page's data (lib/read/player-page.ts): a player of a product in the caller's scope,
// else 404 (audited) before anything is read. The page's address hands over its keyset cursor as it
// has it; one that does not read as a cursor is the newest page, as it always was.
const cursor = z.string().max(200).optional();

export const GET = staffRoute(
  {
    name: "console.player-page",
    permission: "orders:view",
    input: z.object({ after: cursor, before: cursor }),
    scope: tenantScope(({ params }: RouteRequest<unknown>) => String(params.tenant)),
  },
  async ({ input, params, resource: { tenantId } }) => readModelResponse(await readPlayerPage(tenantId, String(params.playerId), input)),
);
