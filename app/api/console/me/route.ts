import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readMe } from "@/lib/read/me";
import { readModelResponse } from "@/lib/read/wire";

// The console frame's read model (lib/read/me.ts): every signed-in page's header and navigation,
// saved views included.
export const GET = staffRoute(
  { name: "console.me", permission: "profile:edit", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readMe(staff)),
);
