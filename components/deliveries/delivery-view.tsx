"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { notFound, usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { CopyButton } from "@/components/ui/copy-button";
import { Link } from "@/components/ui/link";
import { RecordLoading } from "@/components/ui/page-loading";
import { useRecordTitle } from "@/components/ui/record-title";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { DeliveryAttempt } from "@/lib/deliveries/find-delivery";
import type { DeliveryModel } from "@/lib/read/deliveries";
import { readModel } from "@/lib/read/wire";
import { deliveryHref, orderHref, RECORD_PAGES, recordOfPath } from "@/lib/http/record-pages";
import { DELIVERIES_KEY } from "./deliveries-view";
import { DeliveryStatusBadge } from "./delivery-status";
import { ResendForm } from "./resend-form";

/**
 * While the relay still has the message (it has a next attempt), the page reads it again at that
 * attempt, but no sooner than POLL_MS and no later than POLL_MAX_MS: a resend shows delivered within
 * seconds, and a message backing off for an hour is not read every two seconds meanwhile (nor does a
 * read during the relay's claim, whose lease is the next attempt, wait out the lease).
 */
const POLL_MS = 2_000;
const POLL_MAX_MS = 10_000;

function deliveryKey(id: string) {
  return [...DELIVERIES_KEY, "message", id] as const;
}

/**
 * One outbox message: what was sent (the exact signed body, the headers of each attempt), what each
 * attempt got back, when the relay tries next, and — for a delivered or dead message — sending it
 * again. Its read model (lib/read/deliveries.ts) comes from /api/console/deliveries/<id>. One shell
 * serves every message (proxy.ts rewrites /deliveries/<id> to it).
 */
export function DeliveryView() {
  const { id } = recordOfPath(RECORD_PAGES.delivery, usePathname()) ?? notFound();
  const client = useQueryClient();
  const { data, error } = useQuery({
    queryKey: deliveryKey(id),
    queryFn: ({ signal }) => readModel<DeliveryModel>(`/api/console/deliveries/${encodeURIComponent(id)}`, signal),
    refetchInterval: (query) => {
      const next = query.state.data?.message.nextAttemptAt;
      return next ? Math.min(POLL_MAX_MS, Math.max(POLL_MS, next.getTime() - Date.now())) : false;
    },
    retry: retryRead,
  });
  const refresh = useCallback(() => {
    // The list's pages say the message's old status: dropped, so going back reads them anew.
    client.removeQueries({ queryKey: [...DELIVERIES_KEY, "list"] });
    return client.invalidateQueries({ queryKey: deliveryKey(id) });
  }, [client, id]);
  const t = useTranslations("deliveries");
  useRecordTitle(t("message.tabTitle", { id }));

  if (error) showReadRefusal(error, deliveryHref(id), "deliveries:view");
  if (!data) return <RecordLoading status={t("loading")} />;
  return (
    <RefreshViewProvider refresh={refresh}>
      <DeliveryBody model={data} />
    </RefreshViewProvider>
  );
}

function DeliveryBody({ model: { message: m, maySend, resendBlocked } }: { model: DeliveryModel }) {
  const t = useTranslations("deliveries");
  const latest = m.log.at(-1);
  return (
    <div className="space-y-6">
      <header className="space-y-2 rounded-lg border border-slate-200 bg-white p-5">
        <p className="text-sm text-slate-600">
          <Link href="/deliveries" className="underline-offset-2 hover:underline">
            {t("title")}
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{t("message.heading", { id: m.id })}</h1>
          <DeliveryStatusBadge delivery={m.delivery} />
        </div>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Fact label={t("message.topic")}>
            <span className="font-mono">{m.topic}</span>
          </Fact>
          <Fact label={t("message.tenant")}>
            <span className="font-mono">{m.tenantId}</span>
          </Fact>
          <Fact label={t("message.order")}>
            {m.orderNo ? (
              <Link href={orderHref(m.tenantId, m.orderNo)} className="font-mono underline-offset-2 hover:underline">
                {m.orderNo}
              </Link>
            ) : (
              t("noOrder")
            )}
          </Fact>
          <Fact label={t("message.created")}>
            <Time value={m.createdAt} />
          </Fact>
          <Fact label={t("message.attempts")}>
            <span data-testid="delivery-attempts">{m.attempts}</span>
          </Fact>
          <Fact label={t("message.next")}>
            {m.nextAttemptAt ? <Time value={m.nextAttemptAt} /> : m.deliveredAt && m.delivery === "delivered" ? <>{t("deliveredAt")} <Time value={m.deliveredAt} /></> : t("message.noNext")}
          </Fact>
        </dl>
        {m.delivery === "no-webhook" ? <p className="text-sm text-slate-700">{t("message.noWebhook")}</p> : null}
        {m.lastError && m.delivery !== "no-webhook" ? (
          <p className="text-sm text-red-800">
            {t("message.lastError")} <span className="break-words font-mono">{m.lastError}</span>
          </p>
        ) : null}
      </header>

      <section aria-labelledby="delivery-attempts-heading" className="space-y-2">
        <h2 id="delivery-attempts-heading" className="text-lg font-semibold">
          {t("attempts.title")}
        </h2>
        {m.log.length === 0 ? <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t("attempts.none")}</p> : <AttemptsTable attempts={m.log} />}
      </section>

      <section aria-labelledby="delivery-payload-heading" className="space-y-2">
        <div className="flex items-center gap-3">
          <h2 id="delivery-payload-heading" className="text-lg font-semibold">
            {t("payload.title")}
          </h2>
          <CopyButton value={m.body} name={t("payload.copy")} />
        </div>
        <p className="text-sm text-slate-600">{t("payload.hint")}</p>
        <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs" data-testid="delivery-body" tabIndex={0}>
          {m.body}
        </pre>
      </section>

      <section aria-labelledby="delivery-headers-heading" className="space-y-2">
        <h2 id="delivery-headers-heading" className="text-lg font-semibold">
          {t("headers.title")}
        </h2>
        {latest ? (
          <>
            <p className="text-sm text-slate-600">{t("headers.hint")}</p>
            <Headers headers={latest.headers} />
          </>
        ) : (
          <p className="text-sm text-slate-600">{t("headers.none")}</p>
        )}
      </section>

      <section aria-labelledby="delivery-resend-heading" className="space-y-2">
        <h2 id="delivery-resend-heading" className="text-lg font-semibold">
          {t("resend.title")}
        </h2>
        {m.resends.length > 0 ? (
          <ul className="space-y-1 text-sm text-slate-700" data-testid="delivery-resends">
            {m.resends.map((r, i) => (
              <li key={i}>
                <Time value={r.at} /> · <span className="font-mono">{r.actor}</span> · {r.reason}
              </li>
            ))}
          </ul>
        ) : null}
        {/* The form stays mounted while the message is on its way, so what a resend said stays in view. */}
        {maySend && resendBlocked !== "not-a-webhook" ? (
          <ResendForm messageId={m.id} onItsWay={resendBlocked === "on-its-way"} />
        ) : (
          <p className="text-sm text-slate-600">{maySend ? t("resend.blocked.not-a-webhook") : t("resend.notAllowed")}</p>
        )}
      </section>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Headers({ headers }: { headers: Readonly<Record<string, string>> }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white p-3 font-mono text-xs sm:grid-cols-[max-content_1fr]" data-testid="delivery-headers">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-slate-600">{name}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function AttemptsTable({ attempts }: { attempts: readonly DeliveryAttempt[] }) {
  const t = useTranslations("deliveries.attempts");
  return (
    <Table
      caption={t("caption")}
      testId="delivery-attempts-table"
      columns={[{ label: t("columns.time") }, { label: t("columns.result") }, { label: t("columns.latency"), align: "right" }, { label: t("columns.body") }]}
    >
      <tbody>
        {[...attempts].reverse().map((a) => (
          <tr key={a.id} className="border-b border-slate-100 align-top last:border-0" data-testid="delivery-attempt">
            <td className="p-3 text-xs">
              <Time value={a.at} />
              <div className="break-all font-mono text-slate-600">{a.url}</div>
            </td>
            <td className="p-3">
              {a.status !== null ? (
                <span className={`font-mono ${a.status >= 200 && a.status < 300 ? "text-emerald-800" : "text-red-800"}`}>HTTP {a.status}</span>
              ) : (
                <span className="text-red-800">{t("noAnswer")}</span>
              )}
              {a.error && a.status === null ? <div className="break-words text-xs text-red-800">{a.error}</div> : null}
            </td>
            <td className="p-3 text-right tabular-nums">{t("ms", { ms: a.latencyMs })}</td>
            <td className="p-3">
              {a.responseBody ? <pre className="max-h-40 max-w-md overflow-auto whitespace-pre-wrap break-all font-mono text-xs">{a.responseBody}</pre> : <span className="text-slate-600">—</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
