import { CopyButton } from "@/components/ui/copy-button";
import { Link } from "@/components/ui/link";
import { orderHref } from "@/lib/http/record-pages";

/**
 * A list's order cell: the order no, opening the order's page, over its product; `none` when the
 * row has no order. With `copyLabel`, the order no can be copied as well.
 */
export function OrderCell({ tenantId, orderNo, none, copyLabel }: { tenantId: string; orderNo: string | null; none: string; copyLabel?: string }) {
  return (
    <>
      {orderNo ? (
        <span className="inline-flex items-center gap-1">
          <Link href={orderHref(tenantId, orderNo)} className="font-mono underline-offset-2 hover:underline">
            {orderNo}
          </Link>
          {copyLabel ? <CopyButton value={orderNo} label={copyLabel} /> : null}
        </span>
      ) : (
        <span className="text-slate-600">{none}</span>
      )}
      <span className="block font-mono text-xs text-slate-600">{tenantId}</span>
    </>
  );
}
