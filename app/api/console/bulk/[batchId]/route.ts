import { NextResponse } from "next/server";
import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { batchScope } from "@/lib/auth/scope";
import { batchItems, batchSummary } from "@/lib/bulk/batches";
import { describeItem } from "@/lib/bulk/describe-item";
import { toCsv } from "@/lib/csv";
import { translator } from "@/lib/i18n/translator";
import type { BulkBatchResults } from "@/lib/read/bulk";
import { readModelResponse } from "@/lib/read/wire";

const input = z.object({ format: z.enum(["json", "csv"]).default("json") });

// A batch's per-order results: JSON for the page's table (read as a read model, lib/read/wire.ts), or
// ?format=csv to download (worded in the viewer's language).
export const GET = staffRoute(
  { name: "console.bulk-results", permission: "orders:bulk", input, scope: batchScope((r: RouteRequest<z.output<typeof input>>) => String(r.params.batchId)) },
  async ({ staff, input, resource }) => {
    const [summary, items] = await Promise.all([batchSummary(resource.batchId), batchItems(resource.batchId)]);
    if (input.format === "json") return readModelResponse({ summary, items } satisfies BulkBatchResults);
    const t = translator(staff.locale);
    const csv = toCsv(
      ["position", "tenant", "order_no", "status", "detail", "updated_at"],
      items.map((i) => [i.position, resource.tenantId, i.orderNo, i.status, describeItem(i.detail, t, staff.locale), i.updatedAt.toISOString()]),
    );
    return new NextResponse(csv, {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="bulk-${resource.batchId}.csv"` },
    });
  },
);
