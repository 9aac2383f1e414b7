import { Alert } from "@/components/ui/alert";
import { useDescribeProblem } from "@/components/orders/names";
import type { FieldProblem } from "@/lib/problems";

/**
 * The filters of a log page that could not be read, each with why, in the reader's language. In
 * server and client components alike (the security log's view reads its model in the browser).
 */
export function InvalidFilters({ title, invalid }: { title: string; invalid: readonly { readonly field: string; readonly problem: FieldProblem }[] }) {
  const describe = useDescribeProblem();
  if (invalid.length === 0) return null;
  return (
    <Alert tone="error">
      {title}{" "}
      {invalid.map((i) => (
        <span key={i.field} className="mr-2">
          <span className="font-mono">{i.field}</span>: {describe(i.problem)}
        </span>
      ))}
    </Alert>
  );
}
