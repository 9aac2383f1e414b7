import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { OrdersListLoading, OrdersListView } from "@/components/orders/orders-list-view";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("orders");
  return { title: t("title") };
}

// The orders list reads nothing here: the browser reads the list for its URL from
// /api/console/orders (session, orders:view, the caller's products) and lays it out
// (components/orders/orders-list-view.tsx). Suspense: the view reads the URL's query string.
export default function OrdersPage() {
  return (
    <Suspense fallback={<OrdersListLoading />}>
      <OrdersListView />
    </Suspense>
  );
}
