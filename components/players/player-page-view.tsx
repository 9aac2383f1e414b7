"use client";

import { useQuery } from "@tanstack/react-query";
import { notFound, usePathname, useSearchParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { ExceptionKindName } from "@/components/orders/names";
import { StateBadge } from "@/components/orders/state-badge";
import { RefundWatchBanner } from "@/components/players/refund-watch-banner";
import { playerPageQuery } from "@/components/record-queries";
import { CopyButton } from "@/components/ui/copy-button";
import { Link } from "@/components/ui/link";
import { RecordLoading } from "@/components/ui/page-loading";
import { useRecordTitle } from "@/components/ui/record-title";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import { formatMoney } from "@/lib/format";
import type { PlayerPageCursor, PlayerPageModel, PlayerPageMoney } from "@/lib/read/player-page";
import { orderHref, playerHref, RECORD_PAGES, recordOfPath } from "@/lib/http/record-pages";

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

/**
 * One player in one product: what they paid and had back over their lifetime, the cases of their
 * orders still open, and every order, newest first — the read model (lib/read/player-page.ts) from
 * one JSON route, laid out here. Outside the caller's products this is the not-found page (audited),
 * like an order would be.
 *
 * One shell serves every player (proxy.ts rewrites /players/<tenant>/<playerId> to it), so the player
 * is named by the address in the browser, and the page of orders by its query string (a keyset
 * cursor: `?after=` older, `?before=` newer).
 */
export function PlayerPageView() {
  const { tenant, playerId } = recordOfPath(RECORD_PAGES.player, usePathname()) ?? notFound();
  const query = useSearchParams();
  const cursor: PlayerPageCursor = { after: query.get("after") ?? undefined, before: query.get("before") ?? undefined };
  const { data, error } = useQuery({
    // Opened from the cache (a link's prefetch, back or forward), then read again unless just read.
    ...playerPageQuery(tenant, playerId, cursor),
    retry: retryRead,
  });
  useRecordTitle(useTranslations("player")("pageTitle", { playerId }));

  const search = query.toString();
  if (error) showReadRefusal(error, `${playerHref(tenant, playerId)}${search ? `?${search}` : ""}`, "orders:view");
  if (!data) return <PlayerPageLoading />;
  return <PlayerPageBody tenantId={tenant} playerId={playerId} model={data} />;
}

/** While the player's model loads (and, in the shell, while the address is read). */
export function PlayerPageLoading() {
  return <RecordLoading status={useTranslations("player")("loading")} />;
}

function PlayerPageBody({ tenantId, playerId, model: m }: { tenantId: string; playerId: string; model: PlayerPageModel }) {
  const t = useTranslations("player");
  const locale = useLocale();
  const base = playerHref(tenantId, playerId);
  const keys = useListKeys();
  const { orders, storeEvents } = m;
  return (
    <div className="space-y-6">
      <header className="rounded-lg border border-slate-200 bg-white p-5">
        <p className="text-sm text-slate-500">{t("kicker")}</p>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="break-all font-mono text-xl font-semibold" data-testid="player-id">
            {playerId}
          </h1>
          <CopyButton value={playerId} label={t("copy")} />
        </div>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">{t("product")}</dt>
          <dd>
            {m.productName ?? tenantId} <span className="font-mono text-xs text-slate-500">{tenantId}</span>
          </dd>
          {m.firstOrderAt && m.lastOrderAt ? (
            <>
              <dt className="text-slate-500">{t("firstOrder")}</dt>
              <dd>
                <Time value={m.firstOrderAt} />
              </dd>
              <dt className="text-slate-500">{t("lastOrder")}</dt>
              <dd>
                <Time value={m.lastOrderAt} />
              </dd>
            </>
          ) : null}
        </dl>
        {m.refundWatch ? (
          <div className="mt-4">
            <RefundWatchBanner watch={m.refundWatch} tenantId={tenantId} playerId={playerId} linked={false} />
          </div>
        ) : null}
      </header>

      <section aria-labelledby="player-money-heading" className="space-y-2">
        <h2 id="player-money-heading" className="font-semibold">
          {t("money.title")}
        </h2>
        {m.money.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t("money.none")}</p>
        ) : (
          <div className="grid gap-3 md:grid-cols-2" data-testid="player-money">
            {m.money.map((money) => (
              <MoneyCard key={money.currency} money={money} locale={locale} />
            ))}
          </div>
        )}
        <p className="max-w-3xl text-xs text-slate-500">{t("money.definition")}</p>
      </section>

      {/* Only when the player owes something: a debt from a refund taken back under the negative-balance rule. */}
      {m.debts.length > 0 ? (
        <section aria-labelledby="player-debts-heading" className="space-y-2">
          <h2 id="player-debts-heading" className="font-semibold">
            {t("debts.title")}
          </h2>
          <p className="max-w-3xl text-sm text-slate-600">{t("debts.description")}</p>
          <Table caption={t("debts.caption")} testId="player-debts" border="border-amber-200" columns={[{ label: t("debts.sku") }, { label: t("debts.owed"), align: "right" }, { label: t("debts.orders") }]}>
            <tbody>
              {m.debts.map((d) => (
                <tr key={`${d.sku}/${d.kind}`} className="border-b border-slate-100 align-top last:border-0" data-testid={`player-debt-${d.sku}`}>
                  <td className="p-3">
                    <span className="font-mono">{d.sku}</span> <span className="font-mono text-xs text-slate-500">{d.kind}</span>
                  </td>
                  <td className="whitespace-nowrap p-3 text-right font-semibold tabular-nums text-red-700">{d.owed > 0 ? `−${d.owed}` : `+${-d.owed}`}</td>
                  <td className="p-3">
                    <ul className="space-y-0.5">
                      {d.orders.map((o) => (
                        <li key={o.orderNo} className="text-xs">
                          <Link href={orderHref(tenantId, o.orderNo)} className="font-mono underline-offset-2 hover:underline">
                            {o.orderNo}
                          </Link>{" "}
                          <span className="tabular-nums text-slate-600">{t("debts.fromOrder", { units: o.owed })}</span> <Time value={o.at} />
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </section>
      ) : null}

      <section aria-labelledby="player-exceptions-heading" className="space-y-2">
        <h2 id="player-exceptions-heading" className="font-semibold">
          {t("exceptions.title", { count: m.exceptionCount })}
        </h2>
        {m.exceptions.length === 0 ? (
          <p className="text-sm text-slate-600">{t("exceptions.none")}</p>
        ) : (
          <Table caption={t("exceptions.caption")} testId="player-exceptions" border="border-red-200" columns={[{ label: t("exceptions.kind") }, { label: t("orders.orderNo") }, { label: t("orders.amount"), align: "right" }, { label: t("exceptions.status") }, { label: t("exceptions.filed") }]}>
            <tbody>
              {m.exceptions.map((e) => (
                <tr key={e.id} className="border-b border-slate-100 align-top last:border-0">
                  <td className="p-3">
                    <ExceptionKindName kind={e.kind} />
                    {e.bizKey ? <div className="break-all font-mono text-xs text-slate-500">{e.bizKey}</div> : null}
                  </td>
                  <td className="p-3">
                    <Link href={orderHref(tenantId, e.orderNo)} className="font-mono underline-offset-2 hover:underline">
                      {e.orderNo}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap p-3 text-right tabular-nums">{e.amount !== null ? formatMoney(e.amount, e.currency, locale) : "—"}</td>
                  <td className="whitespace-nowrap p-3">
                    {t(`exceptions.statuses.${e.status === "in-progress" ? "inProgress" : "open"}`)}
                    {e.overdue ? <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-800">{t("exceptions.overdue")}</span> : null}
                  </td>
                  <td className="p-3 text-xs text-slate-700">
                    <Time value={e.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>

      <section aria-labelledby="player-store-heading" className="space-y-2">
        <h2 id="player-store-heading" className="font-semibold">
          {t("storeEvents.title")}
        </h2>
        {storeEvents.total === 0 ? (
          <p className="text-sm text-slate-600">{t("storeEvents.none")}</p>
        ) : (
          <>
            <p className="text-sm text-slate-700" data-testid="player-store-summary">
              {t("storeEvents.summary", { refunds: storeEvents.refunds, reversals: storeEvents.reversals })}
            </p>
            <Table caption={t("storeEvents.caption")} testId="player-store-events" columns={[{ label: t("storeEvents.type") }, { label: t("storeEvents.store") }, { label: t("storeEvents.orderNo") }, { label: t("storeEvents.transaction") }, { label: t("storeEvents.outcome") }, { label: t("storeEvents.money"), align: "right" }, { label: t("storeEvents.signed") }]}>
              <tbody>
                {storeEvents.events.map((e) => (
                  <tr key={e.id} className="border-b border-slate-100 align-top last:border-0">
                    <td className="p-3">{e.partial ? t("storeEvents.partialRefund") : t(`storeEvents.types.${e.type}`)}</td>
                    <td className="whitespace-nowrap p-3">{t(`storeEvents.stores.${e.store}`)}</td>
                    <td className="p-3">
                      <Link href={orderHref(tenantId, e.orderNo)} className="font-mono underline-offset-2 hover:underline">
                        {e.orderNo}
                      </Link>
                    </td>
                    <td className="break-all p-3 font-mono text-xs text-slate-700">{e.transactionId ?? "—"}</td>
                    <td className="p-3">{t(`storeEvents.outcomes.${e.outcome}`)}</td>
                    <td className="whitespace-nowrap p-3 text-right tabular-nums" data-testid="store-event-money">
                      {e.refundedAmount === null
                        ? "—"
                        : t(e.refundedAmount < 0 ? "storeEvents.moneyGivenBack" : "storeEvents.moneyRefunded", { amount: formatMoney(Math.abs(e.refundedAmount), e.currency, locale) })}
                    </td>
                    <td className="p-3 text-xs text-slate-700">
                      <Time value={e.signedAt} />
                      {e.deadlineAt ? (
                        <div className="text-slate-500">
                          {t("storeEvents.deadline")} <Time value={e.deadlineAt} />
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </>
        )}
      </section>

      <section aria-labelledby="player-orders-heading" className="space-y-3">
        <h2 id="player-orders-heading" className="font-semibold">
          {t("orders.title")}
        </h2>
        {orders.rows.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600">{orders.firstPage ? t("orders.none") : t("orders.pageEmpty")}</p>
        ) : (
          <Table caption={t("orders.caption")} testId="player-orders" columns={[{ label: t("orders.orderNo") }, { label: t("orders.amount"), align: "right" }, { label: t("orders.state") }, { label: t("orders.since") }, { label: t("orders.created") }]}>
            <tbody ref={keys}>
              {orders.rows.map((o) => (
                <tr key={o.id} className="border-b border-slate-100 align-top last:border-0">
                  <td className="whitespace-nowrap p-3">
                    <Link href={orderHref(tenantId, o.orderNo)} className="font-mono font-medium underline-offset-2 hover:underline">
                      {o.orderNo}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap p-3 text-right tabular-nums">{formatMoney(o.amount, o.currency, locale)}</td>
                  <td className="whitespace-nowrap p-3">
                    <StateBadge state={o.state} />
                  </td>
                  <td className="p-3 text-xs text-slate-700">
                    <Time value={o.stateAt} />
                  </td>
                  <td className="p-3 text-xs text-slate-700">
                    <Time value={o.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {/* Each page is an address of its own (a bookmark, a ticket): the query string carries the cursor. */}
        <nav aria-label={t("orders.pages")} className="flex items-center gap-2">
          {!orders.firstPage ? (
            <Link href={base} className={LINK}>
              {t("orders.newest")}
            </Link>
          ) : null}
          {orders.newer ? (
            <Link href={`${base}?${new URLSearchParams({ before: orders.newer })}`} className={LINK} rel="prev">
              {t("orders.newer")}
            </Link>
          ) : null}
          {orders.older ? (
            <Link href={`${base}?${new URLSearchParams({ after: orders.older })}`} className={`ml-auto ${LINK}`} rel="next">
              {t("orders.older")}
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

function MoneyCard({ money, locale }: { money: PlayerPageMoney; locale: string }) {
  const t = useTranslations("player.money");
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`player-money-${money.currency}`}>
      <p className="font-mono text-xs text-slate-500">{money.currency}</p>
      <dl className="mt-2 grid grid-cols-3 gap-3">
        <div>
          <dt className="text-xs text-slate-500">{t("paid")}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="player-paid">
            {formatMoney(money.paid, money.currency, locale)}
          </dd>
          <dd className="text-xs text-slate-500">{t("paidOrders", { count: money.paidOrders })}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">{t("refunded")}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="player-refunded">
            {formatMoney(money.refunded, money.currency, locale)}
          </dd>
          <dd className="text-xs text-slate-500">{t("refundedOrders", { count: money.refundedOrders })}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">{t("rate")}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="player-rate">
            {new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(money.rate)}
          </dd>
          <dd className="text-xs text-slate-500">{t("ordersTotal", { count: money.orders })}</dd>
        </div>
      </dl>
    </div>
  );
}
