import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getPrisma } from "@/lib/db/prisma";
import { useFreshDatabase } from "@/lib/test/database";
import { revokeSessions } from "./staff";

// The real session check (every other test file signs in through lib/test/session.ts): the cookie
// next-auth sets, read from a request's headers alone, then the database's word on the member.
vi.unmock("@/lib/auth/current-staff");
const { staffOfRequest } = await import("./current-staff");

useFreshDatabase();

const SECRET = "test-only-session-secret-0123456789abcdef";
let member: { staffId: number; tokenVersion: number; email: string };

beforeAll(async () => {
  vi.stubEnv("NEXTAUTH_SECRET", SECRET);
  const row = await getPrisma().staffUser.create({ data: { email: "cookie@example.com", name: "Cookie", passwordHash: "x", role: "ops", tenantIds: ["t1"] } });
  member = { staffId: Number(row.id), tokenVersion: row.tokenVersion, email: row.email };
});

const token = (claims: { staffId: number; tokenVersion: number } = member, secret = SECRET, maxAge?: number) => encode({ token: { ...claims }, secret, ...(maxAge !== undefined ? { maxAge } : {}) });
const request = (cookie: string, https = false) => new Headers({ cookie, ...(https ? { "x-forwarded-proto": "https" } : {}) });

describe("staffOfRequest", () => {
  it("names the member whose session cookie the request carries, under the cookie name of its scheme", async () => {
    const jwt = await token();
    expect(await staffOfRequest(request(`other=1; next-auth.session-token=${jwt}`))).toMatchObject({ email: "cookie@example.com", role: "ops", tenantIds: ["t1"] });
    expect(await staffOfRequest(request(`__Secure-next-auth.session-token=${jwt}`, true))).toMatchObject({ email: "cookie@example.com" });
    // Over HTTPS only the Secure cookie counts.
    expect(await staffOfRequest(request(`next-auth.session-token=${jwt}`, true))).toBeNull();
  });

  it("reads a cookie next-auth split into chunks", async () => {
    const jwt = await token();
    const half = Math.floor(jwt.length / 2);
    expect(await staffOfRequest(request(`next-auth.session-token.0=${jwt.slice(0, half)}; next-auth.session-token.1=${jwt.slice(half)}`))).toMatchObject({ email: "cookie@example.com" });
  });

  it("is nobody for no cookie, a forged or expired token, or a session ended by sign-out", async () => {
    expect(await staffOfRequest(request(""))).toBeNull();
    expect(await staffOfRequest(request(`next-auth.session-token=${await token(member, "another-secret-entirely-0123456789")}`))).toBeNull();
    expect(await staffOfRequest(request("next-auth.session-token=not-a-token"))).toBeNull();
    expect(await staffOfRequest(request(`next-auth.session-token=${await token(member, SECRET, -60)}`))).toBeNull();
    const jwt = await token();
    await revokeSessions(member.staffId, member.tokenVersion);
    expect(await staffOfRequest(request(`next-auth.session-token=${jwt}`))).toBeNull();
  });
});
