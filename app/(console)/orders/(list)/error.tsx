"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";

// What the agent needs is what to do next, not the error: no message, digest or stack is shown
// (the server has logged it with its context).
export default function OrdersError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("orders.error");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <main className="space-y-4">
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-5 text-red-900">
        <h1 className="text-lg font-semibold">{t("title")}</h1>
        <p className="mt-1 text-sm">{t("body")}</p>
      </div>
      <Button
        disabled={pending}
        onClick={() =>
          // The page is rendered on the server: fetch it again, then re-mount the segment.
          startTransition(() => {
            router.refresh();
            reset();
          })
        }
      >
        {t("retry")}
      </Button>
    </main>
  );
}
