import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { DeliveriesLoading, DeliveriesView } from "@/components/deliveries/deliveries-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "deliveries" }))("title") };
}

// Prerendered per locale. The browser reads the messages for its URL from /api/console/deliveries
// (session, deliveries:view, the caller's products) and lays them out
// (components/deliveries/deliveries-view.tsx). Suspense: the view reads the URL's query string.
export default async function DeliveriesPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<DeliveriesLoading />}>
      <DeliveriesView />
    </Suspense>
  );
}
