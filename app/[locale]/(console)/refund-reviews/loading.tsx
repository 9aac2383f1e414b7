import { RefundReviewsLoading } from "@/components/refund-reviews/refund-reviews-view";

// Also shown while a review page under /refund-reviews/… loads, so it stays generic: a title and a block.
export default function Loading() {
  return <RefundReviewsLoading />;
}
