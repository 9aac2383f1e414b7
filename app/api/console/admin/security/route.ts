import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readSecurity } from "@/lib/read/security";
import { readModelResponse } from "@/lib/read/wire";

// The security log's read model (lib/read/security.ts) over the facts without a product and the
// caller's own products. The page hands over its query string whole, as `query`: the log reads it
// field by field and drops a bad filter with a note (a NUL included) instead of refusing the request.
export const GET = staffRoute(
  { name: "console.admin.security", permission: "users:manage", input: z.object({ query: z.string().max(4_000).default("") }), scope: noResource },
  async ({ staff, input }) => {
    const params = new URLSearchParams(input.query);
    // Every value of a repeated parameter: the log reads the first, as the page did.
    return readModelResponse(await readSecurity(staff, Object.fromEntries([...params.keys()].map((name) => [name, params.getAll(name)]))));
  },
);
