import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readSearch } from "@/lib/read/search";
import { readModelResponse } from "@/lib/read/wire";

// As long as the orders list's search box takes: a longer term is the list's to explain.
const input = z.object({ q: z.string().trim().min(1).max(200) });

// Where the search page sends a term (lib/read/search.ts): an order of the caller's products, or the list.
export const GET = staffRoute(
  { name: "console.search", permission: "orders:view", input, scope: noResource },
  async ({ staff, input }) => readModelResponse(await readSearch(staff, input.q)),
);
