import { OrdersListLoading } from "@/components/orders/orders-list-view";

// Also shown while an order page under /orders/… loads, so it stays generic: a title and rows.
export default function OrdersLoading() {
  return <OrdersListLoading />;
}
