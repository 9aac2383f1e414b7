"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState, useTransition } from "react";
import { checkDatabase } from "@/app/[locale]/(console)/actions/check-database";
import { Button } from "@/components/ui/button";
import { RETRY_AFTER_SECONDS } from "@/lib/db/unavailable";

type Diagnosis = "checking" | "outage" | "other";

/**
 * What a console error page shows. A view fails when its read model does (the route answered 5xx, or
 * no answer); in production the browser never learns why (a server error hands it only a digest), so
 * the page asks the server whether the database is reachable. While it is not, this says so and checks again every few seconds, rendering the page
 * again by itself once the database answers: an outage is waited out, not reported as a bug.
 * Otherwise a generic message with the digest as the reference (the server logged the error under it).
 */
export function ErrorState({ error, reset, title, body }: { error: Error & { digest?: string }; reset: () => void; title?: string; body?: string }) {
  const t = useTranslations("errorPage");
  const client = useQueryClient();
  const [pending, startTransition] = useTransition();
  // Per error: a page that fails again after a retry is diagnosed afresh.
  const [diagnosed, setDiagnosed] = useState<{ readonly error: Error; readonly diagnosis: Diagnosis } | null>(null);
  const diagnosis: Diagnosis = diagnosed?.error === error ? diagnosed.diagnosis : "checking";
  // The failed reads start afresh (their error is forgotten, nothing else's data is), then the
  // segment mounts again and its views read once more. Nothing is rendered on the server.
  const retry = useCallback(
    () =>
      startTransition(async () => {
        await client.resetQueries({ predicate: (query) => query.state.status === "error" });
        reset();
      }),
    [client, reset],
  );

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const check = async (afterOutage: boolean): Promise<void> => {
      const answer = await checkDatabase({}).catch(() => null);
      if (stopped) return;
      if (answer && !answer.ok && answer.error.code === "unavailable") {
        setDiagnosed({ error, diagnosis: "outage" });
        timer = setTimeout(() => void check(true), RETRY_AFTER_SECONDS * 1000);
      } else if (afterOutage) {
        retry();
      } else {
        setDiagnosed({ error, diagnosis: "other" });
      }
    };
    void check(false);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [error, retry]);

  if (diagnosis === "checking") {
    return (
      <div role="status" className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-600">
        {t("checking")}
      </div>
    );
  }
  if (diagnosis === "outage") {
    return (
      <div role="status" aria-live="polite" className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-5 text-amber-900">
        <h1 className="flex items-center gap-2 text-lg font-semibold">
          <span aria-hidden className="size-3 animate-pulse rounded-full bg-amber-500" />
          {t("outageTitle")}
        </h1>
        <p className="text-sm">{t("outageBody", { seconds: RETRY_AFTER_SECONDS })}</p>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-5 text-red-900">
        <h1 className="text-lg font-semibold">{title ?? t("title")}</h1>
        <p className="mt-1 text-sm">{body ?? t("body")}</p>
        {error.digest ? <p className="mt-2 font-mono text-xs text-red-700">{t("reference", { reference: error.digest })}</p> : null}
      </div>
      <Button disabled={pending} onClick={retry}>
        {t("retry")}
      </Button>
    </div>
  );
}
