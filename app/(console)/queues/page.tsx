import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { QueueLive } from "@/components/orders/queue-live";
import { requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { actorOf } from "@/lib/auth/staff";
import { listAssignees } from "@/lib/cases/queries/assignees";
import { isCaseFilter } from "@/lib/cases/filters";
import { loadQueues } from "@/lib/orders/queries/queues";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("queues");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function QueuesPage({ searchParams }: Props) {
  const staff = await requireStaff("orders:view");
  const { tab, cases } = await searchParams;
  const viewer = { actor: actorOf(staff), role: staff.role };
  const [snapshot, assignees] = await Promise.all([
    loadQueues(staff.tenantIds, { viewer, caseFilter: isCaseFilter(cases) ? cases : "all" }),
    can(staff.role, "cases:work") ? listAssignees(staff.tenantIds) : Promise.resolve([]),
  ]);
  return (
    <main>
      <QueueLive initial={snapshot} requestedTab={typeof tab === "string" ? tab : undefined} assignees={assignees} me={viewer.actor} />
    </main>
  );
}
