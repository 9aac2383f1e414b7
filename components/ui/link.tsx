"use client";

import { QueryClientContext } from "@tanstack/react-query";
import NextLink from "next/link";
import { useRouter } from "next/navigation";
import { useContext, useEffect, useRef, type ComponentProps, type FocusEvent, type MouseEvent } from "react";
import { prefetchRecord, recordQueryOfHref } from "@/components/record-queries";

/** How long the pointer rests on a link before its record is read: passing over a list reads nothing. */
export const PREFETCH_INTENT_MS = 80;

/**
 * Every link of the console. A click is a client-side navigation, as with Next's own Link, but
 * nothing is fetched because a link is on screen: Next prefetches each link in view, and a prefetch of
 * a console page would be one request per link (22 for one view of the orders list, most for pages
 * nobody opens next).
 *
 * A link to a record page (an order, a player, a refund review) reads the record's read model on
 * intent instead — the pointer resting on it for PREFETCH_INTENT_MS, or keyboard focus — with the
 * view's own query (components/record-queries.ts), so the view opens from the cache and reads again
 * behind it. The same intent prefetches the page (Next's router.prefetch): one static shell for every
 * record, which a click would otherwise fetch before the view could draw anything.
 *
 * A link to a place on another page (`/settings#webhook-x`) is followed by the browser: Next's router
 * drops the fragment of a page it did not prefetch, and the page would open at its top.
 */
export function Link({ href, onMouseEnter, onMouseLeave, onFocus, ...anchor }: Omit<ComponentProps<"a">, "href"> & { readonly href: string }) {
  const client = useContext(QueryClientContext);
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (/^\/[^#]*#./.test(href)) return <a href={href} onMouseEnter={onMouseEnter} onMouseLeave={onMouseLeave} onFocus={onFocus} {...anchor} />;
  const record = client ? recordQueryOfHref(href) : null;
  if (!client || !record) {
    return <NextLink href={href} prefetch={false} onMouseEnter={onMouseEnter} onMouseLeave={onMouseLeave} onFocus={onFocus} {...anchor} />;
  }
  // The record's model, and the page's shell: a static file, the same for every record, which the
  // click would otherwise ask for first (Next's router then keeps it).
  const prefetch = () => {
    prefetchRecord(client, record);
    router.prefetch(href);
  };
  const intent = {
    onMouseEnter: (event: MouseEvent<HTMLAnchorElement>) => {
      onMouseEnter?.(event);
      clearTimeout(timer.current);
      timer.current = setTimeout(prefetch, PREFETCH_INTENT_MS);
    },
    onMouseLeave: (event: MouseEvent<HTMLAnchorElement>) => {
      onMouseLeave?.(event);
      clearTimeout(timer.current);
    },
    onFocus: (event: FocusEvent<HTMLAnchorElement>) => {
      onFocus?.(event);
      prefetch();
    },
  };
  return <NextLink href={href} prefetch={false} {...intent} {...anchor} />;
}
