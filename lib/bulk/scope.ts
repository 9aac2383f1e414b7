import "server-only";
import { requireTenantScope } from "@/lib/auth/scope";
import type { Staff } from "@/lib/auth/staff";
import { AppError } from "@/lib/errors";
import { batchSummary, type BatchSummary } from "./batches";

/** The batch, if it exists and its tenant is in the caller's scope (else 404, audited). */
export async function batchInScope(staff: Staff, batchId: string): Promise<BatchSummary> {
  const summary = await batchSummary(batchId);
  if (!summary) throw new AppError("not-found", "No such batch.");
  await requireTenantScope(staff, summary.tenantId, `bulk:${batchId}`);
  return summary;
}
