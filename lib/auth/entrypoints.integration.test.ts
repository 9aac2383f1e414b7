import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api/keys";
import { requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { startBatch } from "@/lib/bulk/batches";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { paymentAfterClose } from "@/lib/cases/fixtures";
import { transit } from "@/lib/orders/transit";
import { EXCEPTION_KINDS } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import { ROLES, ROLE_PERMISSIONS, type Permission, type Role } from "./permissions";

// Proves "one way in": every server action and every route handler in app/ is built by
// defineAction / staffRoute / apiRoute with a permission and a scope rule, refuses anonymous and
// under-privileged callers, and refuses a caller scoped to another tenant (404, or 403 for handing
// out access) — each without writing anything but the audit row of the refusal. A new entry point
// that skips the builders, or that acts on a tenant's resource without a sample below, fails here.

useFreshDatabase();

const APP = path.join(process.cwd(), "app");
/** Routes open to anonymous callers on purpose. */
const PUBLIC_ROUTES = new Set(["app/api/auth/[...nextauth]/route.ts"]);
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** The tenant every resource below lives in, and the one the cross-tenant caller is scoped to. */
const HOME = "scope-home";
const ELSEWHERE = "scope-elsewhere";

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes(".test."))
    .map((e) => path.join(e.parentPath, e.name));
}

const files = await filesUnder(APP);
const actionFiles: string[] = [];
for (const file of files) {
  const text = await readFile(file, "utf8");
  if (/^\s*["']use server["']/.test(text)) actionFiles.push(file);
}
const routeFiles = files.filter((f) => path.basename(f) === "route.ts" && !PUBLIC_ROUTES.has(path.relative(process.cwd(), f)));

/** A role without the permission; undefined for one every staff member holds (profile:edit). */
function roleLacking(permission: Permission): Role | undefined {
  return ROLES.find((r) => !ROLE_PERMISSIONS[r].includes(permission));
}

/** The least role with the permission: the cross-tenant caller may do the thing, just not there. */
function roleHolding(permission: Permission): Role {
  return ROLES.find((r) => ROLE_PERMISSIONS[r].includes(permission))!;
}

/**
 * Row counts of every table but the audit log (refusals are audited there on purpose, and each
 * audit row moves its chain's head) and the rate windows (a failed API key and a refused store
 * notification are counted there on purpose: lib/db/rate-window.ts).
 */
async function tableCounts(): Promise<Record<string, number>> {
  const { rows } = await getPool().query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('audit_events', 'audit_chain_heads', 'rate_windows')`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    const r = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}"`);
    counts[table_name] = r.rows[0]!.n;
  }
  return counts;
}

const deniedCount = () => getPrisma().auditEvent.count({ where: { action: "access.denied" } });

/** Resources of tenant HOME that the samples point at. */
const home = { orderNo: "", playerId: "", batchId: "", resendBatchId: "", approvalId: 0, staffId: 0, keyPrefix: "", settingsVersion: "", viewId: 0, reviewId: 0, messageId: 0 };

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(HOME, { refundApprovalAmount: 1_00 }));
  await ensureTenant(getPool(), tenantSpec(ELSEWHERE));
  const order = await createOrder(getPool(), { tenantId: HOME, amount: 6_00 });
  await transit({ orderId: order.id, event: "pay", bizKey: "txn-scope", amount: 6_00, actor: "channel", source: "callback" });
  home.orderNo = order.orderNo;
  home.playerId = order.playerId;
  home.batchId = randomUUID();
  await startBatch({ batchId: home.batchId, tenantId: HOME, orderNos: [order.orderNo], reason: "scope test", actor: "test" });
  home.resendBatchId = randomUUID();
  await startBatch({ kind: "resend", batchId: home.resendBatchId, tenantId: HOME, orderNos: [], reason: "scope test", actor: "test" });
  home.approvalId = (await requestRefundApproval({ tenantId: HOME, orderId: order.id, requestedBy: "staff:a", reason: "asked", requestKey: randomUUID() })).id;
  const user = await getPrisma().staffUser.create({ data: { email: "home@example.com", name: "Home", passwordHash: "x", role: "agent", tenantIds: [HOME] } });
  home.staffId = Number(user.id);
  home.keyPrefix = (await createApiKey({ tenantId: HOME, name: "scope-key", actor: "test" })).summary.prefix;
  home.settingsVersion = (await listTenantSettings([HOME]))[0]!.updatedAt;
  const view = await getPrisma().savedView.create({ data: { tenantId: HOME, ownerId: user.id, name: "Stuck", shared: true, filters: { stuck: true } } });
  home.viewId = Number(view.id);
  const review = await getPrisma().refundReview.create({
    data: { tenantId: HOME, store: "appstore", requestId: randomUUID(), transactionId: "txn-scope", orderId: order.id, requestedAt: new Date(), deadlineAt: new Date(Date.now() + 3_600_000) },
  });
  home.reviewId = Number(review.id);
  const message = await getPrisma().outboxMessage.create({ data: { tenantId: HOME, orderId: order.id, topic: "order.transitioned", payload: { scope: true }, status: "dead", attempts: 15 } });
  home.messageId = Number(message.id);
});

const reason = "checking the scope rules";
const minutes = (value: number) => ({ value, unit: "minutes" });

/** Per action: a valid input that targets tenant HOME's resources. */
const ACTION_SAMPLES: Readonly<Record<string, () => Record<string, unknown>>> = {
  "orders.trigger-event": () => ({ tenant: HOME, orderNo: home.orderNo, event: "request-refund", reason, idempotencyKey: randomUUID(), expectedVersion: 1 }),
  "orders.grant-line": () => ({ tenant: HOME, orderNo: home.orderNo, sku: "gems-60", quantity: 1, reason, grantKey: randomUUID() }),
  "orders.repair-delivery": () => ({ tenant: HOME, orderNo: home.orderNo, reason }),
  "orders.add-note": () => ({ tenant: HOME, orderNo: home.orderNo, body: "player called again", noteKey: randomUUID() }),
  "bulk.preview": () => ({ tenant: HOME, text: home.orderNo }),
  "bulk.start": () => ({ batchId: randomUUID(), tenant: HOME, orderNos: [home.orderNo], reason }),
  "bulk.run-chunk": () => ({ batchId: home.batchId }),
  "approvals.decide": () => ({ id: home.approvalId, approve: true, reason }),
  "settings.update-dwell": () => ({
    tenant: HOME,
    expectedUpdatedAt: home.settingsVersion,
    created: minutes(30),
    paid: minutes(30),
    delivering: minutes(30),
    refunding: minutes(120),
  }),
  "settings.update-refund-approval": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, amount: "99" }),
  "settings.update-apple-store": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, bundleId: "com.example.game", environment: "Sandbox" }),
  "settings.update-google-play": () => ({
    tenant: HOME,
    expectedUpdatedAt: home.settingsVersion,
    packageName: "com.example.game",
    pushAudience: "https://console.example.com/api/v1/stores/google/notifications/home",
    pushServiceAccount: "play-push@example.iam.gserviceaccount.com",
  }),
  "settings.update-refund-reviews": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, autoSend: true }),
  "settings.update-refund-watch": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, percent: "30" }),
  "settings.update-webhook": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, webhookUrl: "https://game.example.com/orderops/webhook" }),
  "settings.update-take-back-rules": () => ({
    tenant: HOME,
    expectedUpdatedAt: home.settingsVersion,
    currency: "negative-balance",
    stamina: "revoke",
    cosmetic: "write-off",
    item: "write-off",
    revokeEndpointUrl: "https://game.example.com/revoke",
  }),
  "refund-reviews.send": () => ({ reviewId: home.reviewId, customerConsented: true, refundPreference: 3 }),
  "settings.update-unpaid-timeout": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, timeout: minutes(45) }),
  "settings.update-canned-reasons": () => ({ tenant: HOME, expectedUpdatedAt: home.settingsVersion, close: "the player asked us to cancel" }),
  "users.create": () => ({ email: "new@example.com", name: "New", role: "agent", tenantIds: [HOME] }),
  "users.update": () => ({ id: home.staffId, role: "ops" }),
  "users.reset-password": () => ({ id: home.staffId }),
  "users.set-disabled": () => ({ id: home.staffId, disabled: true }),
  "apikeys.create": () => ({ tenant: HOME, name: "another-key" }),
  "apikeys.revoke": () => ({ prefix: home.keyPrefix }),
  "cases.take": () => ({ caseId: caseHome.caseId }),
  "cases.assign": () => ({ caseId: caseHome.caseId, assignee: "home@example.com", expectedOwner: "", reason }),
  "cases.resolve": () => ({ caseId: caseHome.caseId, resolution: "refund", reason, requestKey: randomUUID() }),
  "cases.dismiss": () => ({ caseId: caseHome.caseId, reason, requestKey: randomUUID() }),
  "cases.refund-resend": () => ({ caseId: caseHome.caseId, refundId: "rf-any" }),
  "cases.refund-told": () => ({ caseId: caseHome.caseId, refundId: "rf-any", reason }),
  "settings.update-case-sla": () => ({
    tenant: HOME,
    expectedUpdatedAt: home.settingsVersion,
    sla: Object.fromEntries(EXCEPTION_KINDS.map((kind) => [kind, minutes(60)])),
  }),
  "views.save": () => ({ name: "Paid", tenant: HOME, state: "paid" }),
  "views.save-shared": () => ({ name: "Paid", tenant: HOME, state: "paid" }),
  "views.rename": () => ({ id: home.viewId, name: "Renamed" }),
  "views.delete": () => ({ id: home.viewId }),
  "deliveries.resend": () => ({ messageId: home.messageId, reason, requestKey: randomUUID() }),
  "deliveries.bulk-resend-preview": () => ({ tenant: HOME, since: "2026-01-01T00:00:00Z" }),
  "deliveries.bulk-resend-start": () => ({ batchId: randomUUID(), tenant: HOME, since: "2026-01-01T00:00:00Z", reason }),
  "deliveries.bulk-resend-run": () => ({ batchId: home.resendBatchId }),
  "deliveries.test-send": () => ({ tenant: HOME, endpoint: "webhook" }),
};

/** Per console route: the path parameters and query that target tenant HOME's resources. */
const ROUTE_SAMPLES: Readonly<Record<string, () => { params: Record<string, string>; query?: string; body?: unknown }>> = {
  "app/api/console/orders/[tenant]/[orderNo]/route.ts": () => ({ params: { tenant: HOME, orderNo: home.orderNo } }),
  "app/api/console/orders/[tenant]/[orderNo]/page/route.ts": () => ({ params: { tenant: HOME, orderNo: home.orderNo } }),
  // A well-formed poll: the scope is judged on what would otherwise be written.
  "app/api/console/orders/[tenant]/[orderNo]/presence/route.ts": () => ({ params: { tenant: HOME, orderNo: home.orderNo }, body: { tab: randomUUID(), since: 0 } }),
  "app/api/console/players/[tenant]/[playerId]/route.ts": () => ({ params: { tenant: HOME, playerId: home.playerId } }),
  "app/api/console/bulk/[batchId]/route.ts": () => ({ params: { batchId: home.batchId } }),
  "app/api/console/refund-reviews/[id]/route.ts": () => ({ params: { id: String(home.reviewId) } }),
  "app/api/console/deliveries/[id]/route.ts": () => ({ params: { id: String(home.messageId) } }),
  "app/api/console/audit/export/route.ts": () => ({ params: {}, query: `tenant=${HOME}` }),
  "app/api/console/orders/export/route.ts": () => ({ params: {}, query: `tenant=${HOME}` }),
  "app/api/console/settings/route.ts": () => ({ params: {}, query: `tenant=${HOME}` }),
  "app/api/console/admin/users/[id]/route.ts": () => ({ params: { id: String(home.staffId) } }),
  "app/api/console/dashboard/daily/route.ts": () => ({ params: {}, query: `tenant=${HOME}` }),
};

type Action = ((input: unknown) => Promise<{ ok: boolean; error?: { code: string } }>) & {
  permission?: Permission;
  scopeKind?: string;
  actionName?: string;
};

describe("entry points are found", () => {
  it("finds the app's actions and routes (the enumeration itself works)", () => {
    expect(actionFiles.length).toBeGreaterThan(5);
    expect(routeFiles.length).toBeGreaterThan(5);
  });
});

describe.each(actionFiles.map((f) => [path.relative(process.cwd(), f), f]))("server actions in %s", (_, file) => {
  it("every export is built by defineAction and refuses anonymous, under-privileged and cross-tenant callers, writing nothing", async () => {
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const exports = Object.entries(mod);
    expect(exports.length).toBeGreaterThan(0);
    for (const [name, value] of exports) {
      expect(typeof value, `${name} must be a function`).toBe("function");
      const action = value as Action;
      expect(action.permission, `${name} must be built with defineAction and a permission`).toBeDefined();
      expect(action.scopeKind, `${name} must declare a scope rule`).toBeDefined();
      const before = await tableCounts();

      signOut();
      expect(await action({})).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
      const lacking = roleLacking(action.permission!);
      if (lacking) {
        signInAs(lacking, [HOME]);
        expect(await action({})).toMatchObject({ ok: false, error: { code: "forbidden" } });
      }

      if (action.scopeKind !== "none") {
        const sample = ACTION_SAMPLES[action.actionName!];
        expect(sample, `${action.actionName} acts on a tenant's resource: add a sample input to ACTION_SAMPLES`).toBeDefined();
        const denied = await deniedCount();
        signInAs(roleHolding(action.permission!), [ELSEWHERE], { email: "elsewhere@example.com" });
        const result = await action(sample!());
        expect(result.ok, `${action.actionName} answered ok to a caller scoped to another tenant`).toBe(false);
        expect(["not-found", "forbidden"], `${action.actionName}: ${JSON.stringify(result)}`).toContain(result.error?.code);
        expect(await deniedCount(), `${action.actionName} must audit the cross-tenant attempt`).toBe(denied + 1);
      }

      expect(await tableCounts()).toEqual(before);
    }
  });
});

type Route = ((req: NextRequest, ctx: { params: Promise<object> }) => Promise<Response>) & {
  permission?: Permission;
  scopeKind?: string;
  auth?: "api-key" | "api-key-or-staff" | "store-signature";
};

describe.each(routeFiles.map((f) => [path.relative(process.cwd(), f), f]))("route %s", (relative, file) => {
  it("every method is built by a route wrapper and refuses callers without the right credentials or scope, writing nothing", async () => {
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const methods = HTTP_METHODS.filter((m) => m in mod);
    expect(methods.length).toBeGreaterThan(0);
    for (const method of methods) {
      const handler = mod[method] as Route;
      expect(handler.permission ?? handler.auth, `${method} must be built with staffRoute, apiRoute, apiKeyOrStaffRoute or storeRoute`).toBeDefined();
      const call = (headers: Record<string, string> = {}, params: Record<string, string> = { orderNo: "X-1" }, query = "", body: unknown = {}) =>
        handler(
          new NextRequest(`http://localhost/x${query ? `?${query}` : ""}`, {
            method,
            headers: { ...headers, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
            ...(method === "GET" ? {} : { body: JSON.stringify(body) }),
          }),
          { params: Promise.resolve(params) },
        );
      const before = await tableCounts();

      if (handler.auth === "store-signature") {
        // A store's route: the signature is the credential, whoever is signed in. Nothing signed,
        // a signature by no store, and a staff session are each refused — for a tenant that exists
        // (STORE_SAMPLES) — and each refusal is recorded in the audit log, nothing else.
        const sample = STORE_SAMPLES[relative];
        expect(sample, `${relative} is a store's route: add a refused sample to STORE_SAMPLES`).toBeDefined();
        const { params, body } = sample!();
        const refusedBefore = await getPrisma().auditEvent.count({ where: { action: "store.notification-refused" } });
        for (const signedIn of [false, true]) {
          if (signedIn) signInAs("manager", [HOME]);
          else signOut();
          const response = await handler(
            new NextRequest("http://localhost/x", { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
            { params: Promise.resolve(params) },
          );
          expect(response.status).toBe(401);
          expect(await response.json()).toMatchObject({ error: { code: "unauthenticated" } });
        }
        expect(await getPrisma().auditEvent.count({ where: { action: "store.notification-refused" } })).toBe(refusedBefore + 2);
        expect(await tableCounts()).toEqual(before);
        continue;
      }

      signOut();
      const anonymous = await call();
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { code: "unauthenticated" } });
      if (handler.permission) {
        expect(handler.scopeKind, `${method} must declare a scope rule`).toBeDefined();
        const lacking = roleLacking(handler.permission);
        if (lacking) {
          signInAs(lacking, [HOME]);
          expect((await call()).status).toBe(403);
        }
        if (handler.scopeKind !== "none") {
          const sample = ROUTE_SAMPLES[relative];
          expect(sample, `${relative} acts on a tenant's resource: add a sample to ROUTE_SAMPLES`).toBeDefined();
          signInAs(roleHolding(handler.permission), [ELSEWHERE], { email: "elsewhere@example.com" });
          const { params, query, body } = sample!();
          const foreign = await call({}, params, query, body);
          expect([403, 404], `${relative} answered ${foreign.status} to a caller scoped to another tenant`).toContain(foreign.status);
        }
      }
      if (handler.auth === "api-key") {
        // A staff session is no API key, and neither is a key that was never issued.
        signInAs("manager", [HOME]);
        expect((await call()).status).toBe(401);
        expect((await call({ authorization: `Bearer oo_000000000000_${"A".repeat(43)}` })).status).toBe(401);
      } else if (handler.auth === "api-key-or-staff") {
        // Open to either, checked as both: the staff checks above, and a key that was never issued
        // is refused even beside a session that may read the route.
        expect(handler.scopeKind, `${relative} is read by every tenant's keys: it may not act on a resource`).toBe("none");
        signInAs(roleHolding(handler.permission!), [HOME]);
        expect((await call({ authorization: `Bearer oo_000000000000_${"A".repeat(43)}` })).status).toBe(401);
      }

      expect(await tableCounts()).toEqual(before);
    }
  });
});

/** Per store route: a notification for tenant HOME that no store signed. */
const STORE_SAMPLES: Readonly<Record<string, () => { params: Record<string, string>; body: unknown }>> = {
  "app/api/v1/stores/apple/notifications/[tenant]/route.ts": () => ({
    params: { tenant: HOME },
    body: { signedPayload: `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from("{}").toString("base64url")}.` },
  }),
  // A well-formed Pub/Sub push without the OIDC token Google attaches.
  "app/api/v1/stores/google/notifications/[tenant]/route.ts": () => ({
    params: { tenant: HOME },
    body: {
      message: { data: Buffer.from(JSON.stringify({ packageName: "com.example.game", eventTimeMillis: "1", testNotification: {} })).toString("base64"), messageId: "1" },
      subscription: "projects/p/subscriptions/s",
    },
  }),
};

/** A case of tenant HOME (issue 13): a payment that arrived after its order closed. */
const caseHome = { caseId: 0 };

beforeAll(async () => {
  caseHome.caseId = (await paymentAfterClose(HOME)).caseId;
});
