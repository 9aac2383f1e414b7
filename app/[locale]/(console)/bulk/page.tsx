import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { BulkView } from "@/components/bulk/bulk-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "bulk" }))("title") };
}

// Prerendered per locale. The page reads nothing here: the browser reads the caller's products and
// past batches from /api/console/bulk (session, orders:bulk) and lays them out with the batch form
// (components/bulk/bulk-view.tsx).
export default async function BulkPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <BulkView />;
}
