import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { DashboardView } from "@/components/dashboard/dashboard-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "dashboard" }))("title") };
}

// Prerendered per locale. The dashboard reads nothing here: the browser reads its counts from
// /api/console/dashboard and each product's 30-day series from /api/console/dashboard/daily
// (session, orders:view, the caller's products), and draws them (components/dashboard/dashboard-view.tsx).
export default async function DashboardPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <DashboardView />;
}
