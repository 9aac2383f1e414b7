// What the web process's listener and proxy.ts agree on about page addresses. Pure, and free of
// lib/'s other modules: the listener's own bundle holds it (scripts/build.mjs).

/**
 * An address no page has: app/[locale]/[...rest] answers it as the console's not-found page. Where
 * an address names nothing (escapes that do not decode, a NUL in an order's address), it is served
 * from here.
 */
export const NOT_FOUND_PATH = "/_/not-found";

/** Whether every escape in a request path decodes; the path itself is left as it is. */
export function wellFormedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
