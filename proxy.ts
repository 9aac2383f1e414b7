import { NextResponse, type NextRequest } from "next/server";
import { wellFormedPath } from "@/lib/path-segment";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { contentSecurityPolicy, newNonce, servedOverHttps, STRICT_TRANSPORT_SECURITY } from "@/lib/http/security-headers";

// Conveniences, none of them a security boundary for data (every page, action and route checks the
// session and permission itself):
// - every request gets an id (or keeps the caller's), passed to handlers as x-request-id and echoed
//   in the response, so a support ticket's screenshot can be matched to the server's logs;
// - a browser without a session cookie is sent to sign-in before any page renders;
// - every response gets its Content-Security-Policy with a fresh nonce (Next reads the nonce from
//   the request's CSP header and puts it on its scripts), and HSTS when it came over HTTPS.

const PUBLIC_PATHS = ["/sign-in", "/api/"];
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest): NextResponse {
  const requestId = request.headers.get("x-request-id") || crypto.randomUUID();
  const { pathname, search } = request.nextUrl;
  const https = servedOverHttps(request.headers);
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });

  const isPublic = PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(p));
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  // A malformed percent-escape (/orders/t/%E0%A4%A) fails inside Next's router with a bare 500
  // before any page or handler could answer it: it names nothing, so it is not found, here.
  const malformed = !wellFormedPath(pathname);
  let response: NextResponse;
  if (malformed && pathname.startsWith("/api/")) {
    response = NextResponse.json({ error: { code: "not-found", message: "Not found." } }, { status: 404 });
  } else if (!isPublic && !hasSession) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", safeCallbackPath(pathname + search));
    response = NextResponse.redirect(signIn);
  } else {
    // Set here, whatever the client sent: pages trust these to be ours.
    const headers = new Headers(request.headers);
    headers.set("x-request-id", requestId);
    headers.set("x-pathname", pathname + search);
    headers.set("content-security-policy", csp);
    response = malformed ? NextResponse.rewrite(new URL("/_not-found", request.url), { request: { headers } }) : NextResponse.next({ request: { headers } });
  }
  response.headers.set("x-request-id", requestId);
  response.headers.set("content-security-policy", csp);
  if (https) response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
