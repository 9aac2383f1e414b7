import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * Every link of the console. A click is a client-side navigation, as with Next's own Link, but
 * nothing is fetched before it: Next prefetches each link in view, and a prefetch of a console page
 * is a server render (22 of them for one view of the orders list, most for pages nobody opens next).
 * Prefetching a page's data on intent belongs here, once, when it comes.
 */
export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
