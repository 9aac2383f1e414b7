import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { audit } from "@/lib/audit/record";
import { getPrisma } from "@/lib/db/prisma";
import { useFreshDatabase } from "@/lib/test/database";
import { hashPassword } from "./passwords";
import { authenticate } from "./sign-in";
import { THROTTLE } from "./throttle";

// Sign-in throttling against the real audit log: the quick lock is per account and address, so a
// stranger cannot lock the owner out from elsewhere; the per-account limit bounds guessing across
// addresses; every lockout is one audit row.

useFreshDatabase();

const PASSWORD = "the-right-password";
let hash = "";
const STRANGER = "203.0.113.7";
const OWNER = "198.51.100.9";

beforeAll(async () => {
  hash = await hashPassword(PASSWORD);
});

async function account(): Promise<string> {
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  await getPrisma().staffUser.create({ data: { email, name: "Owner", passwordHash: hash, role: "agent", tenantIds: [] } });
  return email;
}

async function fail(email: string, address: string | null, times: number): Promise<void> {
  for (let i = 0; i < times; i++) expect((await authenticate(email, `wrong-${i}`, address)).ok).toBe(false);
}

async function auditRows(email: string): Promise<{ action: string; ip: string | null; detail: unknown }[]> {
  return getPrisma().auditEvent.findMany({ where: { target: email }, orderBy: { id: "asc" }, select: { action: true, ip: true, detail: true } });
}

describe("per account and address", () => {
  it("five failures lock the stranger's address out, even with the right password; the owner elsewhere signs in", async () => {
    const email = await account();
    await fail(email, STRANGER, THROTTLE.pair.failures);

    const stranger = await authenticate(email, PASSWORD, STRANGER);
    expect(stranger).toMatchObject({ ok: false, reason: "locked", problem: { kind: "sign-in-locked", minutes: 15 } });
    const owner = await authenticate(email, PASSWORD, OWNER);
    expect(owner).toMatchObject({ ok: true, staff: { email } });

    const rows = await auditRows(email);
    expect(rows.map((r) => r.action)).toEqual([...Array(5).fill("sign-in.failed"), "sign-in.locked", "sign-in.succeeded"]);
    expect(rows[5]).toMatchObject({ ip: STRANGER, detail: { scope: "pair", failures: 5, windowSeconds: 15 * 60 } });
    expect(rows[6]!.ip).toBe(OWNER);
  });

  it("a success from an address clears that address's count", async () => {
    const email = await account();
    await fail(email, OWNER, THROTTLE.pair.failures - 1);
    expect((await authenticate(email, PASSWORD, OWNER)).ok).toBe(true);
    await fail(email, OWNER, THROTTLE.pair.failures - 1);
    expect((await authenticate(email, PASSWORD, OWNER)).ok).toBe(true);
    expect((await auditRows(email)).some((r) => r.action === "sign-in.locked")).toBe(false);
  });

  it("unknown emails count the same way (no telling which exist)", async () => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    await fail(email, STRANGER, THROTTLE.pair.failures);
    expect(await authenticate(email, PASSWORD, STRANGER)).toMatchObject({ ok: false, reason: "locked" });
    expect((await auditRows(email)).map((r) => r.action)).toContain("sign-in.locked");
  });
});

describe("per address, whatever the account", () => {
  it("an address that fails on many accounts is locked for every account; other addresses are not", async () => {
    const sprayer = "192.0.2.50";
    const emails = await Promise.all(Array.from({ length: 5 }, () => account()));
    for (let i = 0; i < THROTTLE.address.failures; i++) await fail(emails[i % emails.length]!, sprayer, 1);

    const victim = await account();
    expect(await authenticate(victim, PASSWORD, sprayer)).toMatchObject({ ok: false, reason: "locked" });
    expect((await authenticate(victim, PASSWORD, OWNER)).ok).toBe(true);
    const locks = await getPrisma().auditEvent.findMany({ where: { action: "sign-in.locked", ip: sprayer } });
    expect(locks.map((l) => (l.detail as { scope: string }).scope)).toEqual(["address"]);
  });
});

describe("per account, across addresses", () => {
  it("bounds guessing from many addresses: at the limit the account is locked everywhere, once audited", async () => {
    const email = await account();
    // The limit's worth of failures, less one, already spread over many addresses (written as the
    // failures would be, without paying a bcrypt each), then the last one through sign-in.
    for (let i = 0; i < THROTTLE.account.failures - 1; i++) {
      await audit({ actor: "anonymous", action: "sign-in.failed", target: email, ip: `10.9.${i >> 8}.${i & 255}`, detail: { why: "wrong-password" } });
    }
    expect((await authenticate(email, PASSWORD, OWNER)).ok).toBe(true);
    await fail(email, "10.10.0.1", 1);

    expect(await authenticate(email, PASSWORD, OWNER)).toMatchObject({ ok: false, reason: "locked", problem: { kind: "sign-in-locked", minutes: 60 } });
    expect(await authenticate(email, PASSWORD, null)).toMatchObject({ ok: false, reason: "locked" });
    const locks = (await auditRows(email)).filter((r) => r.action === "sign-in.locked");
    expect(locks).toHaveLength(1);
    expect(locks[0]).toMatchObject({ ip: "10.10.0.1", detail: { scope: "account", failures: THROTTLE.account.failures } });
  });

  it("without a known address (no trusted proxy) only this limit applies: five failures lock no one out", async () => {
    const email = await account();
    await fail(email, null, THROTTLE.pair.failures + 2);
    expect((await authenticate(email, PASSWORD, null)).ok).toBe(true);
    const rows = await auditRows(email);
    expect(rows.filter((r) => r.action === "sign-in.failed")).toHaveLength(THROTTLE.pair.failures + 2);
    expect(rows.every((r) => r.ip === null)).toBe(true);
    expect(rows.some((r) => r.action === "sign-in.locked")).toBe(false);
  });
});

describe("concurrent failures", () => {
  it("racing past the limit still writes one lockout row", async () => {
    const email = await account();
    await Promise.allSettled(Array.from({ length: 8 }, (_, i) => authenticate(email, `wrong-${i}`, STRANGER)));
    expect(await authenticate(email, PASSWORD, STRANGER)).toMatchObject({ ok: false, reason: "locked" });
    const rows = await auditRows(email);
    expect(rows.filter((r) => r.action === "sign-in.locked")).toHaveLength(1);
  });
});
