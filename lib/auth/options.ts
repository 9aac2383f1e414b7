import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { authenticate } from "./sign-in";

/** Sessions are short: an idle console signs out within the hour. */
export const SESSION_MAX_AGE_SECONDS = 60 * 60;

declare module "next-auth" {
  interface Session {
    staffId: number;
    tokenVersion: number;
  }
  interface User {
    tokenVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    staffId: number;
    tokenVersion: number;
  }
}

export function clientIp(headers: Record<string, string | string[] | undefined> | Headers | undefined): string | null {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : ([headers?.[name]].flat()[0] ?? null);
  return get("x-forwarded-for")?.split(",")[0]?.trim() || get("x-real-ip") || null;
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 5 * 60 },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in" },
  // npm start makes one per installation (.data/auth-secret) when NEXTAUTH_SECRET is not set.
  secret: process.env.NEXTAUTH_SECRET,
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const result = await authenticate(credentials?.email ?? "", credentials?.password ?? "", clientIp(req?.headers));
        // next-auth hands a thrown message to the sign-in page as `error`: the problem, as JSON, for
        // the page to word in the reader's language.
        if (!result.ok) throw new Error(JSON.stringify(result.problem));
        const { staff } = result;
        return { id: String(staff.id), email: staff.email, name: staff.name, tokenVersion: staff.tokenVersion };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.staffId = Number(user.id);
        token.tokenVersion = user.tokenVersion;
      }
      return token;
    },
    session({ session, token }) {
      session.staffId = token.staffId;
      session.tokenVersion = token.tokenVersion;
      return session;
    },
  },
};
