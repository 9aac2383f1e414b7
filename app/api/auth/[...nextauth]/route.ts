import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

// Sign-in itself: the one route that is open to anonymous callers (next-auth checks its own CSRF).
const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
