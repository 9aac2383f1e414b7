import "server-only";
import { decode } from "next-auth/jwt";
import { headers } from "next/headers";
import { cache } from "react";
import { servedOverHttps } from "@/lib/http/security-headers";
import { loadActiveStaff, type Staff } from "./staff";

// Who is calling: the session cookie next-auth set at sign-in, its JWT decrypted with the session
// secret — what getServerSession does, without building a session and running its callbacks for
// every request — then checked against the database every time, so a disabled user, a changed role
// or a sign-out elsewhere (token_version) takes effect at once.

const SESSION_COOKIE = "next-auth.session-token";
/** next-auth's name for it over HTTPS (lib/auth/options.ts sets useSecureCookies from the request). */
const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

/**
 * The staff member a request's session cookie names, or null. Reads only the request's headers, so
 * the web process's listener serves console routes with it without Next (lib/api/serve.ts).
 */
export async function staffOfRequest(headers: Headers): Promise<Staff | null> {
  const token = sessionToken(headers.get("cookie") ?? "", servedOverHttps(headers) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
  if (!token) return null;
  // An expired, tampered or foreign token decodes to nothing: the caller is signed out.
  const jwt = await decode({ token, secret: process.env.NEXTAUTH_SECRET ?? "" }).catch(() => null);
  if (!jwt?.staffId) return null;
  return loadActiveStaff(jwt.staffId, jwt.tokenVersion);
}

/** The signed-in staff member for this server action; read once per request (`cache`). */
export const currentStaff = cache(async (): Promise<Staff | null> => staffOfRequest(await headers()));

/** The cookie's value; next-auth splits one over 4 KB into `<name>.0`, `<name>.1`, … */
function sessionToken(cookieHeader: string, name: string): string | null {
  const cookies = new Map<string, string>();
  for (const pair of cookieHeader.split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length > 0 ? chunks.join("") : null;
}
