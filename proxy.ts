import { NextResponse, type NextRequest } from "next/server";
import { wellFormedPath } from "@/lib/path-segment";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

// Conveniences, none of them a security boundary for data (every page, action and route checks the
// session and permission itself):
// - a browser without a session cookie is sent to sign-in before any page renders;
// - a path whose percent-escapes do not decode is not found, here.
// What every request and response carries (the request id, the caller's address, the
// Content-Security-Policy and its nonce, the fixed security headers) is written before Next sees the
// request, by the web process's listener (lib/process/listener.ts).

const PUBLIC_PATHS = ["/sign-in", "/api/"];
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const isPublic = PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(p));
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  // A malformed percent-escape (/orders/t/%E0%A4%A) fails inside Next's router with a bare 500
  // before any page or handler could answer it: it names nothing, so it is not found.
  const malformed = !wellFormedPath(pathname);
  if (malformed && pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "not-found", message: "Not found." } }, { status: 404 });
  }
  if (!isPublic && !hasSession) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", safeCallbackPath(pathname + search));
    return NextResponse.redirect(signIn);
  }
  return malformed ? NextResponse.rewrite(new URL("/_not-found", request.url)) : NextResponse.next();
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
