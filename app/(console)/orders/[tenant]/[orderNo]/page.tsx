import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { OrderPageView } from "@/components/orders/order-page-view";
import { pathSegment } from "@/lib/auth/page";

type Props = { params: Promise<{ tenant: string; orderNo: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orderNo } = await params;
  const t = await getTranslations("orderPage");
  return { title: t("title", { orderNo: pathSegment(orderNo) }) };
}

// The order page reads nothing here: the browser reads the order's read model from its JSON route
// (app/api/console/orders/[tenant]/[orderNo]/page), which checks the session, the permission and
// the tenant, and lays it out (components/orders/order-page-view.tsx).
export default async function OrderPage({ params }: Props) {
  const { tenant, orderNo } = await params;
  return <OrderPageView tenant={pathSegment(tenant)} orderNo={pathSegment(orderNo)} />;
}
