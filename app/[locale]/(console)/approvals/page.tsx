import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApprovalsView } from "@/components/approvals/approvals-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "approvals" }))("title") };
}

// Prerendered per locale. The approvals read nothing here: the browser reads them from
// /api/console/approvals (session, refunds:approve, the caller's products) and lays them out
// (components/approvals/approvals-view.tsx), reading them again after each decision.
export default async function ApprovalsPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <ApprovalsView />;
}
