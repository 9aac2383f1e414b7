import type { ReactNode } from "react";

export interface Column {
  readonly label: ReactNode;
  readonly align?: "right";
}

/**
 * The console's table: a scrolling bordered box, a caption for screen readers, one header row.
 * The rows (a <tbody>) are the caller's.
 */
export function Table({
  caption,
  columns,
  testId,
  border = "border-slate-200",
  children,
}: {
  caption: string;
  columns: readonly Column[];
  testId?: string;
  /** The box's border colour class (red for a table of open problems). */
  border?: string;
  children: ReactNode;
}) {
  return (
    <div className={`overflow-x-auto rounded-lg border bg-white ${border}`}>
      <table className="w-full border-collapse text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            {columns.map((c, i) => (
              <th key={i} scope="col" className={`p-3 font-medium${c.align === "right" ? " text-right" : ""}`}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
