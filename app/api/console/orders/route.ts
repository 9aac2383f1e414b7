import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readOrdersList } from "@/lib/read/orders-list";
import { readModelResponse } from "@/lib/read/wire";

// The orders list's data (lib/read/orders-list.ts) over the caller's own products. The page hands
// over its query string whole, as `query`: the list reads it field by field and drops a bad filter
// with a note (a NUL typed into the search box included) instead of refusing the whole request.
export const GET = staffRoute(
  { name: "console.orders-list", permission: "orders:view", input: z.object({ query: z.string().max(4_000).default("") }), scope: noResource },
  async ({ staff, input }) => readModelResponse(await readOrdersList(staff, firstValues(new URLSearchParams(input.query)))),
);

/** Each parameter's first value, as the page reads a repeated one. */
function firstValues(params: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of params) values[name] ??= value;
  return values;
}
