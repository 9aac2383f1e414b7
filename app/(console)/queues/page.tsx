import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { QueueLive } from "@/components/orders/queue-live";
import { requireStaff } from "@/lib/auth/page";
import { loadQueues } from "@/lib/orders/queries/queues";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("queues");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function QueuesPage({ searchParams }: Props) {
  const staff = await requireStaff("orders:view");
  const { tab } = await searchParams;
  const snapshot = await loadQueues(staff.tenantIds);
  return (
    <main>
      <QueueLive initial={snapshot} requestedTab={typeof tab === "string" ? tab : undefined} />
    </main>
  );
}
