import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * Every link of the console. A click is a client-side navigation, as with Next's own Link, but
 * nothing is fetched before it: Next prefetches each link in view, and a prefetch of a console page
 * is a server render (22 of them for one view of the orders list, most for pages nobody opens next).
 * Prefetching a page's data on intent belongs here, once, when it comes.
 *
 * A link to a place on another page (`/settings#webhook-x`) is followed by the browser: Next's router
 * drops the fragment of a page it did not prefetch, and the page would open at its top.
 */
export function Link({ href, ...anchor }: Omit<ComponentProps<"a">, "href"> & { readonly href: string }) {
  if (/^\/[^#]*#./.test(href)) return <a href={href} {...anchor} />;
  return <NextLink href={href} prefetch={false} {...anchor} />;
}
