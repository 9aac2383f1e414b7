import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { CaseReasonsProvider } from "@/components/cases/case-reasons";
import { QueueLive } from "@/components/orders/queue-live";
import { requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { actorOf } from "@/lib/auth/staff";
import { listAssignees } from "@/lib/cases/queries/assignees";
import { loadCaseReasons } from "@/lib/cases/queries/case-reasons";
import { isCaseFilter } from "@/lib/cases/filters";
import { loadQueues } from "@/lib/read/queues";

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
  const works = can(staff.role, "cases:work");
  const [snapshot, assignees, reasons] = await Promise.all([
    loadQueues(staff.tenantIds, { viewer, caseFilter: isCaseFilter(cases) ? cases : "all" }),
    works ? listAssignees(staff.tenantIds) : Promise.resolve([]),
    works ? loadCaseReasons(staff.tenantIds) : Promise.resolve({}),
  ]);
  return (
    <div>
      {/* Canned reasons for the case dialogs: given once, not polled with the queue. */}
      <CaseReasonsProvider reasons={reasons}>
        <QueueLive initial={snapshot} requestedTab={typeof tab === "string" ? tab : undefined} assignees={assignees} me={viewer.actor} />
      </CaseReasonsProvider>
    </div>
  );
}
