import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { RefundReviewView } from "@/components/refund-reviews/refund-review-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "refundReviews" }))("review.title") };
}

// One shell for every review, prerendered per locale: proxy.ts rewrites /refund-reviews/<id> to
// /<locale>/refund-reviews/_, and the view takes the review from the browser's address. It reads
// nothing here: the browser reads the review's read model from /api/console/refund-reviews/<id>,
// which checks the session, the permission and the review's tenant, and lays it out
// (components/refund-reviews/refund-review-view.tsx).
export function generateStaticParams() {
  return [{ id: "_" }];
}
export const dynamicParams = false;

export default async function RefundReviewPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <RefundReviewView />;
}
