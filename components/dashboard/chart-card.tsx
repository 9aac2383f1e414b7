import type { ReactNode } from "react";

export interface ChartTable {
  readonly headers: readonly [string, string];
  readonly rows: readonly (readonly [string, number])[];
}

/**
 * A chart with its title, and its numbers as a table for screen readers (a chart is a picture).
 * When `empty` is set, it says so in words instead of drawing a flat chart.
 */
export function ChartCard({
  title,
  description,
  table,
  empty,
  testId,
  children,
}: {
  title: string;
  description: string;
  table: ChartTable;
  empty?: string | null;
  testId: string;
  children: ReactNode;
}) {
  return (
    <figure className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <figcaption>
        <div className="font-medium">{title}</div>
        <div className="text-xs text-slate-500">{description}</div>
      </figcaption>
      <div className="mt-3 min-h-[220px]" aria-hidden={empty ? undefined : true}>
        {empty ? <p className="flex h-[220px] items-center justify-center rounded border border-dashed border-slate-200 text-sm text-slate-500">{empty}</p> : children}
      </div>
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
