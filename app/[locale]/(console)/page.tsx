import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { OverviewView } from "@/components/overview/overview-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "nav" }))("overview") };
}

// Prerendered per locale. The overview reads nothing here: the browser reads its figures from
// /api/console/overview (session, orders:view, the caller's products) and lays them out
// (components/overview/overview-view.tsx).
export default async function HomePage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <OverviewView />;
}
