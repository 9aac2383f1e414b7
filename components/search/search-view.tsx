"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { PageLoading } from "@/components/ui/page-loading";
import type { SearchModel } from "@/lib/read/search";
import { readModel } from "@/lib/read/wire";
import { hasNul } from "@/lib/validation";
import { ordersHref } from "@/lib/views/view-filters";
import { orderHref } from "@/lib/http/record-pages";

/** The term of /search?q=…, and where it goes without asking: null when the server must look it up. */
function termOf(raw: string | null): { q: string; to: string | null } {
  const q = raw?.trim() ?? "";
  if (q === "") return { q, to: "/orders" };
  // What the list cannot search either (too long, a NUL) goes there to be explained beside the form.
  if (q.length > 200 || hasNul(q)) return { q, to: ordersHref({ q }) };
  return { q, to: null };
}

/**
 * Where the search box sends what was pasted: exactly one order in the caller's products matches →
 * that order's page; none or several → the orders list with the term. Never a page of its own: the
 * server says where (/api/console/search), and the address is replaced, so Back does not search again.
 */
export function SearchView() {
  const router = useRouter();
  const raw = useSearchParams().get("q");
  const { q, to } = termOf(raw);
  const { data, error } = useQuery({
    queryKey: ["search", q],
    queryFn: ({ signal }) => readModel<SearchModel>(`/api/console/search?${new URLSearchParams({ q })}`, signal),
    enabled: to === null,
    retry: retryRead,
  });
  const target = to ?? (data ? (data.kind === "order" ? orderHref(data.tenantId, data.orderNo) : ordersHref({ q })) : null);
  useEffect(() => {
    if (target) router.replace(target);
  }, [router, target]);
  if (error) showReadRefusal(error, `/search?${new URLSearchParams({ q: raw ?? "" })}`, "orders:view");
  return <SearchLoading term={q} />;
}

export function SearchLoading({ term = "" }: { term?: string }) {
  const t = useTranslations("search");
  return (
    <PageLoading title={t("pageLabel")} status={t("searching")}>
      {term ? <p className="break-all font-mono text-sm text-slate-700">{term}</p> : null}
    </PageLoading>
  );
}
