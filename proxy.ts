import { NextResponse, type NextRequest } from "next/server";

// Two conveniences, neither a security boundary (every page, action and route checks the session
// and permission itself):
// - every request gets an id (or keeps the caller's), passed to handlers as x-request-id and echoed
//   in the response, so a support ticket's screenshot can be matched to the server's logs;
// - a browser without a session cookie is sent to sign-in before any page renders.

const PUBLIC_PATHS = ["/sign-in", "/api/"];
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest): NextResponse {
  const requestId = request.headers.get("x-request-id") || crypto.randomUUID();
  const { pathname, search } = request.nextUrl;

  const isPublic = PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(p));
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (!isPublic && !hasSession) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("callbackUrl", pathname + search);
    const response = NextResponse.redirect(signIn);
    response.headers.set("x-request-id", requestId);
    return response;
  }

  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  headers.set("x-pathname", pathname + search);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("x-request-id", requestId);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
