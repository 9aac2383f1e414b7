import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { OrdersListLoading, OrdersListView } from "@/components/orders/orders-list-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: "orders" });
  return { title: t("title") };
}

// Prerendered per locale. The orders list reads nothing here: the browser reads the list for its URL from
// /api/console/orders (session, orders:view, the caller's products) and lays it out
// (components/orders/orders-list-view.tsx). Suspense: the view reads the URL's query string.
export default async function OrdersPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<OrdersListLoading />}>
      <OrdersListView />
    </Suspense>
  );
}
