import "server-only";
import type { NextAuthOptions } from "next-auth";
import credentials from "next-auth/providers/credentials";
import { audit } from "@/lib/audit/record";
import { servedOverHttps } from "@/lib/http/security-headers";
import { rememberLocale } from "@/lib/i18n/remember-locale";
import { logger } from "@/lib/log";
import { clientAddress } from "./client-address";
import { safeCallbackPath } from "./safe-redirect";
import { authenticate } from "./sign-in";
import { revokeSessions } from "./staff";

// next-auth is CommonJS with `exports.default`: Next's bundler hands over that default, Node's own
// module loader (the web process's API listener, lib/api/serve.ts, loads this file) the exports object.
const CredentialsProvider = (credentials as unknown as { default?: typeof credentials }).default ?? credentials;

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

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const baseOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 5 * 60 },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in" },
  // Set by scripts/run.mjs: derived from ORDEROPS_SECRET (or given), the demo's own in .data/secret (scripts/build.mjs).
  secret: process.env.NEXTAUTH_SECRET,
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const result = await authenticate(credentials?.email ?? "", credentials?.password ?? "", clientAddress(req?.headers));
        // next-auth hands a thrown message to the sign-in page as `error`: the problem, as JSON, for
        // the page to word in the reader's language.
        if (!result.ok) throw new Error(JSON.stringify(result.problem));
        const { staff } = result;
        await rememberLocale(staff.locale);
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
    // Wherever next-auth would send the browser (its callbackUrl parameter or cookie): this site only.
    redirect({ url, baseUrl }) {
      let path = url;
      try {
        const parsed = new URL(url);
        path = parsed.origin === new URL(baseUrl).origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : "/";
      } catch {
        // Not absolute: a path, judged as one below.
      }
      return `${baseUrl}${safeCallbackPath(path)}`;
    },
  },
  events: {
    // A JWT session lives in the cookie, so clearing the cookie alone leaves every copy of it valid
    // until it expires. Sign-out bumps token_version instead, which every request checks
    // (loadActiveStaff): copies die at once. The price: it also ends the member's sessions in other
    // browsers. A per-session deny list would spare those, but it needs a table read on every
    // request and a sweeper for expired ids — for a staff console with hour-long sessions, "sign out
    // means signed out everywhere" is the simpler promise, and the safer one on a shared machine.
    async signOut({ token }) {
      if (!token?.staffId) return;
      const ended = await revokeSessions(token.staffId, token.tokenVersion);
      if (!ended) return;
      await audit({ actor: `staff:${token.email ?? token.staffId}`, action: "sign-out", target: token.email ?? null });
      logger.info({ staffId: token.staffId }, "signed out; sessions revoked");
    },
  },
};

/**
 * next-auth's options for one request: the session cookie is `Secure` (and `__Secure-` named) when
 * the request came over HTTPS. next-auth would only decide that from NEXTAUTH_URL, which the demo
 * leaves unset — so behind an HTTPS proxy the cookie would travel without the flag.
 */
export function authOptionsFor(headers: HeaderBag): NextAuthOptions {
  return { ...baseOptions, useSecureCookies: servedOverHttps(headers) };
}
