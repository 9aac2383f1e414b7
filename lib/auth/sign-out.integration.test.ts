import type { JWT } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { getPrisma } from "@/lib/db/prisma";
import { useFreshDatabase } from "@/lib/test/database";
import { authOptionsFor } from "./options";
import { loadActiveStaff } from "./staff";

// Sign-out ends the session on the server: the session a copied cookie carries (staff id + token
// version, what loadActiveStaff checks on every request) no longer loads. e2e/auth.spec.ts replays
// a copied cookie against the built app.

useFreshDatabase();

const signOut = (token: JWT) => authOptionsFor(new Headers()).events!.signOut!({ token, session: null as never });

async function member(email: string) {
  const row = await getPrisma().staffUser.create({ data: { email, name: "Member", passwordHash: "x", role: "agent", tenantIds: [] } });
  return { staffId: Number(row.id), tokenVersion: row.tokenVersion, email };
}

describe("sign-out", () => {
  it("revokes the session it ends: the same token no longer loads a staff member", async () => {
    const token = await member("leaving@example.com");
    expect(await loadActiveStaff(token.staffId, token.tokenVersion)).toMatchObject({ email: token.email });

    await signOut(token);

    expect(await loadActiveStaff(token.staffId, token.tokenVersion)).toBeNull();
    const rows = await getPrisma().auditEvent.findMany({ where: { action: "sign-out" } });
    expect(rows).toMatchObject([{ actor: "staff:leaving@example.com", target: "leaving@example.com" }]);
  });

  it("a token already revoked changes nothing: it cannot sign its owner out of a newer session", async () => {
    const old = await member("twice@example.com");
    await signOut(old);
    const current = { ...old, tokenVersion: old.tokenVersion + 1 };
    expect(await loadActiveStaff(current.staffId, current.tokenVersion)).not.toBeNull();

    await signOut(old);

    expect(await loadActiveStaff(current.staffId, current.tokenVersion)).not.toBeNull();
    expect(await getPrisma().auditEvent.count({ where: { action: "sign-out", target: old.email } })).toBe(1);
  });
});
