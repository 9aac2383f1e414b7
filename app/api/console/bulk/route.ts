import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readBulk } from "@/lib/read/bulk";
import { readModelResponse } from "@/lib/read/wire";

// The bulk compensation page's read model (lib/read/bulk.ts): the caller's products and their past
// batches. One batch's results are ./[batchId].
export const GET = staffRoute(
  { name: "console.bulk", permission: "orders:bulk", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readBulk(staff)),
);
