import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptionsFor } from "@/lib/auth/options";

// Sign-in itself: the one route that is open to anonymous callers (next-auth checks its own CSRF).
// The options are made per request: the session cookie is Secure when the request came over HTTPS.
type Context = { params: Promise<{ nextauth: string[] }> };

function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, authOptionsFor(request.headers));
}

export { handler as GET, handler as POST };
