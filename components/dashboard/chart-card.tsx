import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";

export interface ChartTable {
  readonly headers: readonly [string, string];
  readonly rows: readonly (readonly [string, number])[];
}

/** Where a chart's bars lead: each category's orders in the orders list. */
export interface ChartLinks {
  readonly label: string;
  /** Whose chart it is (the product), when the page shows the same chart for several: each navigation landmark needs a name of its own. */
  readonly scope?: string;
  readonly items: readonly { readonly key: string; readonly text: string; readonly href: string }[];
}

/**
 * A chart with its title, and its numbers as a table for screen readers (a chart is a picture).
 * When `empty` is set, it says so in words instead of drawing a flat chart. `links`: the bars' orders
 * as plain links under the chart, for the keyboard and screen readers (a click on a bar opens the same).
 */
export function ChartCard({
  title,
  description,
  table,
  empty,
  testId,
  links,
  note,
  children,
}: {
  title: string;
  description: string;
  table: ChartTable;
  empty?: string | null;
  testId: string;
  links?: ChartLinks;
  /** Said under the chart (e.g. what a click on a bar opens). */
  note?: string;
  children: ReactNode;
}) {
  return (
    <figure className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <figcaption>
        <div className="font-medium">{title}</div>
        <div className="text-xs text-slate-600">{description}</div>
      </figcaption>
      {/* The drawing is for the eye; its numbers (the table) and its links are below for the keyboard and screen readers. */}
      <div className="mt-3 min-h-[220px]" aria-hidden={empty ? undefined : true}>
        {empty ? <p className="flex h-[220px] items-center justify-center rounded border border-dashed border-slate-200 text-sm text-slate-600">{empty}</p> : children}
      </div>
      {links && !empty && links.items.length > 0 ? (
        <nav aria-label={`${links.scope ? `${links.scope} · ` : ""}${title}: ${links.label}`} className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs">
          <span className="text-slate-600">{links.label}</span>
          {links.items.map((l) => (
            <Link key={l.key} href={l.href} className="text-slate-800 underline decoration-slate-300 underline-offset-2 hover:decoration-slate-900">
              {l.text}
            </Link>
          ))}
        </nav>
      ) : null}
      {note && !empty ? <p className="mt-1 text-xs text-slate-600">{note}</p> : null}
      <table className="sr-only">
        <thead>
          <tr>
            <th scope="col">{table.headers[0]}</th>
            <th scope="col">{table.headers[1]}</th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

export function ChartSkeleton({ title }: { title: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-busy="true">
      <div className="font-medium">{title}</div>
      <div className="mt-3 h-[220px] animate-pulse rounded bg-slate-100" />
    </div>
  );
}
