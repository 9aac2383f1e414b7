import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { QueuesLoading, QueuesView } from "@/components/orders/queue-live";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "queues" }))("title") };
}

// Prerendered per locale. The queues read nothing here: the browser reads them from
// /api/console/queues (session, orders:view, the caller's products) and polls it
// (components/orders/queue-live.tsx). Suspense: the view reads the URL's tab and case filter.
export default async function QueuesPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<QueuesLoading />}>
      <QueuesView />
    </Suspense>
  );
}
