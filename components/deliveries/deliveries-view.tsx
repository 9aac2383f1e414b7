"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { InvalidFilters } from "@/components/audit/invalid-filters";
import { UtcRangeFields } from "@/components/audit/utc-range-fields";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { OrderCell } from "@/components/orders/order-cell";
import { useListKeys } from "@/components/ui/keyboard";
import { OUTBOX_DELIVERIES } from "@/lib/outbox/delivery-status";
import { TOPIC_WORD } from "@/lib/outbox/topic-names";
import { OUTBOX_TOPICS } from "@/lib/outbox/topics";
import type { DeliveriesModel } from "@/lib/read/deliveries";
import { readModel } from "@/lib/read/wire";
import { deliveryHref } from "@/lib/http/record-pages";
import { PageLinks } from "@/components/audit/page-links";
import { searchQuery } from "@/lib/audit/queries/filters";
import { encodeDeliveryCursor } from "@/lib/deliveries/delivery-filters";
import { DeliveryStatusBadge } from "./delivery-status";
import { BulkResend } from "./bulk-resend";
import { HealthTable } from "./health-table";
import { TestSendForm } from "./test-send-form";

/** The list's queries; a message's own is under it (delivery-view.tsx), so one prefix names both. */
export const DELIVERIES_KEY = ["deliveries"] as const;

/** Read again while someone looks: deliveries settle on their own (the relay runs every few seconds). */
const POLL_MS = 10_000;

function deliveriesHref(raw: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> = {}): string {
  return `/deliveries${searchQuery(raw, extra)}`;
}

/**
 * Every webhook message of the viewer's products, newest first: the URL's query string is the
 * filter (to bookmark, or paste into a ticket to a game's team), read as one read model
 * (lib/read/deliveries.ts) from /api/console/deliveries.
 */
export function DeliveriesView() {
  const query = useSearchParams().toString();
  const client = useQueryClient();
  const { data, error } = useQuery({
    queryKey: [...DELIVERIES_KEY, "list", query],
    queryFn: ({ signal }) => readModel<DeliveriesModel>(`/api/console/deliveries?${new URLSearchParams({ query })}`, signal),
    refetchInterval: POLL_MS,
    retry: retryRead,
  });
  if (error) showReadRefusal(error, `/deliveries${query ? `?${query}` : ""}`, "deliveries:view");
  if (!data) return <DeliveriesLoading />;
  // Keyed by the URL: the form's fields start from what this URL asked. A form that changed
  // something (the bulk resend) has the list read again.
  return (
    <RefreshViewProvider refresh={() => client.invalidateQueries({ queryKey: DELIVERIES_KEY })}>
      <DeliveriesBody key={query} model={data} />
    </RefreshViewProvider>
  );
}

function DeliveriesBody({ model: m }: { model: DeliveriesModel }) {
  const t = useTranslations("deliveries");
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </header>
      <InvalidFilters title={t("invalidFilters")} invalid={m.invalid} />
      <DeliveriesFilterForm model={m} />
      <section aria-labelledby="deliveries-rows-heading" className="space-y-3">
        <h2 id="deliveries-rows-heading" className="sr-only">
          {t("rowsHeading")}
        </h2>
        {m.tenants.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noScope")}</p>
        ) : m.rows.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600" data-testid="deliveries-empty">
            {m.firstPage ? t("empty") : t("emptyPage")}
          </p>
        ) : (
          <DeliveriesTable model={m} />
        )}
        <PageLinks positions={{ older: m.older && encodeDeliveryCursor(m.older) }} isFirstPage={m.firstPage} href={(extra) => deliveriesHref(m.raw, extra)} />
      </section>
      {m.mayTestSend && m.raw.status === "dead" ? <BulkResendSection model={m} /> : null}
      <section aria-labelledby="deliveries-health-heading" className="space-y-2">
        <h2 id="deliveries-health-heading" className="text-lg font-semibold">
          {t("health.title")}
        </h2>
        <p className="text-sm text-slate-600">{t("health.hint")}</p>
        <HealthTable health={m.health} />
      </section>
      {m.mayTestSend ? (
        <section aria-labelledby="deliveries-test-heading" className="space-y-2">
          <h2 id="deliveries-test-heading" className="text-lg font-semibold">
            {t("testSend.title")}
          </h2>
          <TestSendForm tenants={m.tenants} />
        </section>
      ) : null}
    </div>
  );
}

/**
 * On the dead messages of one product since a time (and no other filter, so the batch is exactly
 * what the filter says): resend them all. Otherwise, how to get there.
 */
function BulkResendSection({ model: m }: { model: DeliveriesModel }) {
  const t = useTranslations("deliveries.bulkResend");
  const { tenant, from, to, topic, order } = m.raw;
  const ready = tenant !== undefined && from !== undefined && to === undefined && topic === undefined && order === undefined;
  return (
    <section aria-labelledby="deliveries-bulk-resend-heading" className="space-y-2">
      <h2 id="deliveries-bulk-resend-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      {ready ? (
        <BulkResend tenant={tenant} since={from} />
      ) : (
        <p className="text-sm text-slate-600" data-testid="bulk-resend-hint">
          {t("hint")}
        </p>
      )}
    </section>
  );
}

function DeliveriesTable({ model: m }: { model: DeliveriesModel }) {
  const t = useTranslations("deliveries");
  const keys = useListKeys();
  return (
    <Table
      caption={t("caption")}
      testId="deliveries"
      columns={[{ label: t("columns.message") }, { label: t("columns.order") }, { label: t("columns.status") }, { label: t("columns.attempts"), align: "right" }, { label: t("columns.created") }, { label: t("columns.next") }]}
    >
      <tbody ref={keys}>
        {m.rows.map((r) => (
          <tr key={r.id} className="border-b border-slate-100 align-top last:border-0" data-testid={`delivery-${r.id}`}>
            <td className="p-3">
              <Link href={deliveryHref(r.id)} className="font-mono font-medium underline-offset-2 hover:underline">
                #{r.id}
              </Link>
              <div className="font-mono text-xs text-slate-600">{r.topic}</div>
            </td>
            <td className="p-3">
              <OrderCell tenantId={r.tenantId} orderNo={r.orderNo} none={t("noOrder")} />
            </td>
            <td className="p-3">
              <DeliveryStatusBadge delivery={r.delivery} />
              {r.lastError && r.delivery !== "no-webhook" ? <div className="mt-1 max-w-xs break-words text-xs text-red-800">{r.lastError}</div> : null}
            </td>
            <td className="p-3 text-right tabular-nums">{r.attempts}</td>
            <td className="p-3 text-xs text-slate-700">
              <Time value={r.createdAt} />
            </td>
            <td className="p-3 text-xs text-slate-700">
              {r.nextAttemptAt ? (
                <Time value={r.nextAttemptAt} />
              ) : r.deliveredAt && r.delivery === "delivered" ? (
                <>
                  {t("deliveredAt")} <Time value={r.deliveredAt} />
                </>
              ) : (
                "—"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The filters as a plain GET form: the URL it makes is the one to bookmark. */
function DeliveriesFilterForm({ model: m }: { model: DeliveriesModel }) {
  const t = useTranslations("deliveries.filters");
  const statuses = useTranslations("deliveries.status");
  const topicWords = useTranslations("deliveries.topics");
  const topics = new Set<string>(OUTBOX_TOPICS);
  return (
    <form method="get" action="/deliveries" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label={t("label")}>
      <Field label={t("tenant")} htmlFor="deliveries-tenant">
        <Select id="deliveries-tenant" name="tenant" defaultValue={m.raw.tenant ?? ""}>
          <option value="">{t("allTenants")}</option>
          {m.tenants.map((tenant) => (
            <option key={tenant.id} value={tenant.id}>
              {tenant.name} ({tenant.id})
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("status")} htmlFor="deliveries-status">
        <Select id="deliveries-status" name="status" defaultValue={m.raw.status ?? ""}>
          <option value="">{t("any")}</option>
          {OUTBOX_DELIVERIES.map((s) => (
            <option key={s} value={s}>
              {statuses(s)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("topic")} htmlFor="deliveries-topic">
        <Select id="deliveries-topic" name="topic" defaultValue={m.raw.topic ?? ""}>
          <option value="">{t("any")}</option>
          {OUTBOX_TOPICS.map((topic) => (
            <option key={topic} value={topic}>
              {topic} · {topicWords(TOPIC_WORD[topic])}
            </option>
          ))}
          {m.raw.topic && !topics.has(m.raw.topic) ? <option value={m.raw.topic}>{m.raw.topic}</option> : null}
        </Select>
      </Field>
      <Field label={t("order")} htmlFor="deliveries-order">
        <Input id="deliveries-order" name="order" defaultValue={m.raw.order ?? ""} autoComplete="off" className="font-mono" />
      </Field>
      <UtcRangeFields idPrefix="deliveries" from={m.filters.from} to={m.filters.to} labels={{ from: t("from"), to: t("to"), hint: t("utcHint") }} />
      <div className="flex items-center gap-3 sm:col-span-2 lg:col-span-4">
        <Button type="submit">{t("apply")}</Button>
        <Link href="/deliveries" className="text-sm text-slate-700 underline-offset-2 hover:underline">
          {t("clear")}
        </Link>
      </div>
    </form>
  );
}

/** While the list loads: its title, the filters' box and rows. */
export function DeliveriesLoading() {
  const t = useTranslations("deliveries");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-32" />
      <Placeholder className="h-64" />
    </PageLoading>
  );
}
