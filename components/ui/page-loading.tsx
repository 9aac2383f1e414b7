import type { ReactNode } from "react";

/**
 * A page waiting for its read model: its title, a line saying what it is reading (a status, for
 * screen readers too), and grey blocks where the content will be (`Placeholder`).
 */
export function PageLoading({ title, status, children }: { title: string; status: string; children: ReactNode }) {
  return (
    <div className="space-y-6" aria-busy="true">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-slate-500" role="status">
          {status}
        </p>
      </div>
      {children}
    </div>
  );
}

/**
 * A record's page (an order, a player, a review) waiting for its read model: the record's header
 * block, a line saying what it is reading, then its sections' blocks. Its title is the record's, not
 * known yet.
 */
export function RecordLoading({ status }: { status: string }) {
  return (
    <div className="space-y-6" aria-busy="true">
      <Placeholder className="h-44" />
      <p role="status" className="text-sm text-slate-500">
        {status}
      </p>
      <Placeholder className="h-32" />
      <Placeholder className="h-64" />
    </div>
  );
}

/** Where a block of the page will be, `className` giving its height. */
export function Placeholder({ className }: { className: string }) {
  return <div className={`animate-pulse rounded-lg border border-slate-200 bg-white ${className}`} />;
}
