import net from "node:net";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { checkDatabase } from "@/app/[locale]/(console)/actions/check-database";
import { setLocale } from "@/app/[locale]/(console)/profile/actions/set-locale";
import { GET as overview } from "@/app/api/console/overview/route";
import { GET as getOrder } from "@/app/api/v1/orders/[orderNo]/route";
import { POST as postOrder } from "@/app/api/v1/orders/route";
import { createApiKey } from "@/lib/api/keys";
import { closePool, getPool } from "@/lib/db/pool";
import { disconnectPrisma } from "@/lib/db/prisma";
import { RETRY_AFTER_SECONDS } from "@/lib/db/unavailable";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";

// While the database cannot be reached, every edge says so — 503 with Retry-After from the routes,
// `unavailable` in the caller's language from server actions — instead of a 500 with a reference to
// a bug that is not there; and each answers normally again once the database is back.

useFreshDatabase();

let key = "";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("outage"));
  key = (await createApiKey({ tenantId: "outage", name: "channel", actor: "test" })).key;
});

/** Runs `work` with the process's pool and Prisma pointed at a port where no server listens. */
async function withDatabaseAway(work: () => Promise<void>): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const url = process.env.DATABASE_URL;
  await disconnectPrisma();
  await closePool();
  process.env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${port}/gone`;
  try {
    await work();
  } finally {
    await disconnectPrisma();
    await closePool();
    process.env.DATABASE_URL = url;
  }
}

const apiGet = () =>
  getOrder(new NextRequest("http://localhost/api/v1/orders/NONE", { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ orderNo: "NONE" }) });
const apiPost = () =>
  postOrder(
    new NextRequest("http://localhost/api/v1/orders", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ orderNo: "OUT-1", playerId: "p", currency: "CNY", amount: 600, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] }),
    }),
    { params: Promise.resolve({}) },
  );
const consoleOverview = () => overview(new NextRequest("http://localhost/api/console/overview"), { params: Promise.resolve({}) });

describe("while the database is unreachable", () => {
  it("the integration API answers 503 with Retry-After and { error: { code, message } }, and serves again once it is back", async () => {
    await withDatabaseAway(async () => {
      for (const response of [await apiGet(), await apiPost()]) {
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
        expect(await response.json()).toEqual({ error: { code: "unavailable", message: "The database is unavailable; try again in a moment." } });
      }
    });
    expect((await apiGet()).status).toBe(404);
    expect((await apiPost()).status).toBe(201);
  });

  it("console routes answer 503 too, in the staff member's language", async () => {
    signInAs("agent", ["outage"], { locale: "zh" });
    await withDatabaseAway(async () => {
      const response = await consoleOverview();
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
      expect(await response.json()).toEqual({ error: { code: "unavailable", message: "数据库暂时不可用，请稍后再试。" } });
    });
    expect((await consoleOverview()).status).toBe(200);
  });

  it("server actions return the unavailable PublicError the forms show; the error pages' probe says the same", async () => {
    signInAs("agent", ["outage"], { locale: "en" });
    await withDatabaseAway(async () => {
      const unavailable = { ok: false, error: { code: "unavailable", message: "The database is unavailable; try again in a moment." } };
      expect(await setLocale({ locale: "zh" })).toEqual(unavailable);
      expect(await checkDatabase({})).toEqual(unavailable);
    });
    expect(await checkDatabase({})).toEqual({ ok: true, data: { reachable: true } });
  });
});
