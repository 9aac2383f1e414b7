import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { RefundReviewsView } from "@/components/refund-reviews/refund-reviews-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "refundReviews" }))("title") };
}

// Prerendered per locale. The deadline queue reads nothing here: the browser reads it from
// /api/console/refund-reviews (session, orders:view, the caller's products) and lays it out
// (components/refund-reviews/refund-reviews-view.tsx).
export default async function RefundReviewsPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <RefundReviewsView />;
}
