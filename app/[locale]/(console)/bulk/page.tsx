import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { BulkCompensation } from "@/components/bulk/bulk-compensation";
import { PastBatches } from "@/components/bulk/past-batches";
import { requireStaff } from "@/lib/auth/page";
import { listBatches } from "@/lib/bulk/batches";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("bulk"))("title") };
}

export default async function BulkPage() {
  const staff = await requireStaff("orders:bulk");
  const t = await getTranslations("bulk");
  const batches = await listBatches(staff.tenantIds);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("intro")}</p>
      </div>
      <BulkCompensation tenants={staff.tenantIds} />
      <PastBatches batches={batches} />
    </div>
  );
}
