import { NextResponse, type NextRequest } from "next/server";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { NOT_FOUND_PATH, wellFormedPath } from "@/lib/http/page-address";
import { RECORD_PAGES, recordOfPath, type RecordPage } from "@/lib/http/record-pages";
import { localeOfRequest } from "@/lib/i18n/browser-locale";
import { isLocale } from "@/lib/i18n/locales";

// Where a page address is served from, and conveniences, none of them a security boundary for data
// (every page, action and route checks the session and permission itself):
// - every page lives under its locale (app/[locale]/), so a page that reads no data is a file made
//   at build: /orders is answered by /<locale>/orders, the locale taken from the locale cookie (the
//   account's language, set at sign-in and by the language switch), else the browser's language.
//   The address in the browser never changes; an address that names a locale itself is sent to the
//   one without it (the cookie decides);
// - every order is answered by the one order shell, /<locale>/orders/_/_, which reads the order
//   from the browser's address (so is every player, refund review and staff member: RECORD_PAGES in lib/http/record-pages.ts); an
//   address whose record segment holds a NUL names no record: not found, here (one whose escapes do
//   not decode never gets here: the listener sends it to NOT_FOUND_PATH, as Next's router would fail
//   on it);
// - a browser without a session cookie is sent to sign-in before any page is served;
// - an API path whose escapes do not decode is not found, here.
// What every request and response carries (the request id, the caller's address, the
// Content-Security-Policy and its nonce, the fixed security headers) is written before Next sees the
// request, by the web process's listener (lib/process/listener.ts), which also puts the nonce on a
// prerendered page's scripts.

const PUBLIC_PATHS = ["/sign-in", "/api/"];
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const isPublic = PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(p));
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (pathname.startsWith("/api/")) {
    // A malformed percent-escape (/api/auth/%E0%A4%A) fails inside Next's router with a bare 500.
    return wellFormedPath(pathname) ? NextResponse.next() : NextResponse.json({ error: { code: "not-found", message: "Not found." } }, { status: 404 });
  }
  const [, first, ...rest] = pathname.split("/");
  if (isLocale(first)) {
    return NextResponse.redirect(new URL(`/${rest.join("/")}${search}`, request.url));
  }
  if (!isPublic && !hasSession) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", safeCallbackPath(pathname + search));
    return NextResponse.redirect(signIn);
  }
  const locale = localeOfRequest(request.headers);
  return NextResponse.rewrite(new URL(`/${locale}${shellOf(pathname)}${search}`, request.url));
}

/** The page that answers an address: itself, but one shell for every order, player, review or staff member. */
function shellOf(pathname: string): string {
  for (const page of Object.values<RecordPage<readonly string[]>>(RECORD_PAGES)) {
    if (page.address.test(pathname)) return recordOfPath(page, pathname) ? page.shell : NOT_FOUND_PATH;
  }
  return pathname === "/" ? "" : pathname;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
