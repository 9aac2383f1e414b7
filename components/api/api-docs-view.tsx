"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import type { openApiDocument } from "@/lib/api/v1/openapi";
import { ReadError } from "@/lib/read/wire";

type ApiDocument = ReturnType<typeof openApiDocument>;

const METHOD_TONE: Record<string, string> = { get: "bg-blue-100 text-blue-800", post: "bg-emerald-100 text-emerald-800" };

/** The OpenAPI document as /api/v1/openapi.json serves it (plain JSON: it is the integrators' file). */
async function readDocument(signal: AbortSignal): Promise<ApiDocument> {
  const response = await fetch("/api/v1/openapi.json", { signal, headers: { accept: "application/json" } });
  if (!response.ok) throw new ReadError(response.status, null);
  return (await response.json()) as ApiDocument;
}

/**
 * The integration API's reference, laid out from the same OpenAPI document integrators fetch:
 * /api/v1/openapi.json, which admits a staff member whose role holds apikeys:manage (or an API key),
 * so the shell carries none of it and another role is sent to the forbidden page by its refusal.
 */
export function ApiDocsView() {
  const t = useTranslations("apiDocs");
  const { data: doc, error } = useQuery({ queryKey: ["api-docs"], queryFn: ({ signal }) => readDocument(signal), staleTime: Infinity, retry: retryRead });
  if (error) showReadRefusal(error, "/admin/api-docs", "apikeys:manage");
  if (!doc) {
    return (
      <PageLoading title={t("pageTitle")} status={t("loading")}>
        <Placeholder className="h-96" />
      </PageLoading>
    );
  }
  return (
    <div className="space-y-6">
      <div>
        {/* The OpenAPI document is English for integrators (the note below says so): marked as such,
            so screen readers read it as English and the page's language checks leave it alone. */}
        <h1 className="text-2xl font-semibold" lang="en">
          {doc.info.title}
        </h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600" lang="en">
          {doc.info.description}
        </p>
        <p className="mt-1 text-sm text-slate-600">{t("englishNote")}</p>
        <p className="mt-1 text-sm">
          {t("machineReadable")} <a className="font-mono underline" href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI {doc.openapi}).
        </p>
      </div>
      {Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => (
          <section key={`${method} ${path}`} className="rounded-lg border border-slate-200 bg-white p-5">
            <h2 className="flex items-center gap-2 font-mono">
              <span className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${METHOD_TONE[method] ?? ""}`}>{method}</span>
              {path}
            </h2>
            <p className="mt-1 text-sm text-slate-700" lang="en">
              {op.summary}
            </p>
            {"requestBody" in op && op.requestBody ? (
              <details className="mt-3">
                <summary className="cursor-pointer text-sm font-medium">{t("requestBody")}</summary>
                <pre className="mt-2 overflow-auto rounded bg-slate-50 p-3 text-xs">
                  {JSON.stringify(doc.components.schemas[op.requestBody.content["application/json"].schema.$ref.split("/").pop() as keyof typeof doc.components.schemas], null, 2)}
                </pre>
              </details>
            ) : null}
            <table className="mt-3 w-full text-sm">
              <tbody>
                {Object.entries(op.responses).map(([status, response]) => (
                  <tr key={status} className="border-t border-slate-100">
                    <td className="w-16 py-1 font-mono">{status}</td>
                    <td lang="en">{(response as { description: string }).description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )),
      )}
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="font-semibold">{t("orderObject")}</h2>
        <pre className="mt-2 overflow-auto rounded bg-slate-50 p-3 text-xs">{JSON.stringify(doc.components.schemas.Order, null, 2)}</pre>
      </section>
    </div>
  );
}
