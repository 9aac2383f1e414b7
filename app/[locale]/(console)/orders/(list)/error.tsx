"use client";

import { useTranslations } from "next-intl";
import { ErrorState } from "@/components/errors/error-state";

// What the agent needs is what to do next, not the error: no message or stack is shown (the server
// has logged it with its context); a database outage is waited out (ErrorState).
export default function OrdersError(props: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("orders.error");
  return <ErrorState {...props} title={t("title")} body={t("body")} />;
}
