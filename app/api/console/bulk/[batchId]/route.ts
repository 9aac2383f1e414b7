import { NextResponse } from "next/server";
import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { batchItems } from "@/lib/bulk/batches";
import { batchInScope } from "@/lib/bulk/scope";
import { toCsv } from "@/lib/csv";

// A batch's per-order results: JSON for the page's table, or ?format=csv to download.
export const GET = staffRoute(
  { name: "console.bulk-results", permission: "orders:bulk", input: z.object({ format: z.enum(["json", "csv"]).default("json") }) },
  async ({ staff, params, input }) => {
    const batchId = String(params.batchId);
    const summary = await batchInScope(staff, batchId);
    const items = await batchItems(batchId);
    if (input.format === "json") return { summary, items };
    const csv = toCsv(
      ["position", "tenant", "order_no", "status", "detail", "updated_at"],
      items.map((i) => [i.position, summary.tenantId, i.orderNo, i.status, i.detail ?? "", i.updatedAt.toISOString()]),
    );
    return new NextResponse(csv, {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="bulk-${batchId}.csv"` },
    });
  },
);
