import { setRequestLocale } from "next-intl/server";
import { OrderPageView } from "@/components/orders/order-page-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

// One shell for every order, prerendered per locale: proxy.ts rewrites /orders/<tenant>/<orderNo>
// to /<locale>/orders/_/_, and the view takes the order from the browser's address. It reads nothing
// here: the browser reads the order's read model from its JSON route
// (app/api/console/orders/[tenant]/[orderNo]/page), which checks the session, the permission and
// the tenant, and lays it out (components/orders/order-page-view.tsx).
export function generateStaticParams() {
  return [{ tenant: "_", orderNo: "_" }];
}
export const dynamicParams = false;

export default async function OrderPage({ params }: { params: Promise<{ locale: string }> }) {
  setRequestLocale((await params).locale);
  return <OrderPageView />;
}
