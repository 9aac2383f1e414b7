import { readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/api/keys";
import { requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { can, ROLES, type Permission } from "@/lib/auth/permissions";
import { startBatch } from "@/lib/bulk/batches";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ORDER_EVENTS } from "@/lib/orders/machine";
import { paymentAfterClose } from "@/lib/cases/fixtures";
import { CHOSEN_RESOLUTIONS } from "@/lib/cases/model";
import { transit } from "@/lib/orders/transit";
import { EXCEPTION_KINDS } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { appFiles, FUZZ_SEED, hostileValue, mutated, rowCounts } from "@/lib/test/fuzz";
import { signInAs } from "@/lib/test/session";

// Issue 11, item 8: every server action in app/, called as a staff member holding its permission,
// with hostile inputs — valid ones with a field replaced, dropped or added, forms, and arbitrary
// values. The answer is { ok: true } or a refusal with a code other than "internal" (the action's
// 4xx), never a thrown error; a refusal writes nothing but its audit row.

// Cookies need a request; the UI-language action sets one. A store per test file stands in.
vi.mock("next/headers", () => {
  const jar = new Map<string, string>();
  const cookies = { get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined), set: (name: string, value: string) => jar.set(name, value) };
  return { cookies: async () => cookies, headers: async () => new Headers() };
});

useFreshDatabase();

const HOME = "fuzz-home";
const OTHER = "fuzz-other";
/** Runs per action: the score of actions take about ten seconds. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);

const home = { orderNo: "", batchId: "", resendBatchId: "", approvalId: 0, staffId: 0, meId: 0, keyPrefix: "", settingsVersion: "", viewId: 0, doomedViewId: 0, reviewId: 0, messageId: 0 };

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(HOME, { refundApprovalAmount: 1_00 }));
  await ensureTenant(getPool(), tenantSpec(OTHER));
  const order = await createOrder(getPool(), { tenantId: HOME, amount: 128_00, lines: [{ sku: "gems-6480", kind: "currency", quantity: 6480 }] });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: 128_00, actor: "channel", source: "callback" });
  home.orderNo = order.orderNo;
  home.batchId = "00000000-0000-4000-8000-000000000001";
  await startBatch({ batchId: home.batchId, tenantId: HOME, orderNos: [order.orderNo], reason: "fuzz", actor: "test" });
  home.resendBatchId = "00000000-0000-4000-8000-000000000002";
  await startBatch({ kind: "resend", batchId: home.resendBatchId, tenantId: HOME, orderNos: [], reason: "fuzz", actor: "test" });
  home.approvalId = (await requestRefundApproval({ tenantId: HOME, orderId: order.id, requestedBy: "staff:a", reason: "asked", requestKey: "k-1" })).id;
  const user = await getPrisma().staffUser.create({ data: { email: "target@example.com", name: "Target", passwordHash: "x", role: "agent", tenantIds: [HOME] } });
  home.staffId = Number(user.id);
  // The signed-in staff member exists too: actions on one's own account (the UI language) write it.
  const me = await getPrisma().staffUser.create({ data: { email: "fuzzer@example.com", name: "Fuzzer", passwordHash: "x", role: "admin", tenantIds: [HOME, OTHER] } });
  home.meId = Number(me.id);
  // The fuzzer's own shared views: one to rename, one to delete (once deleted, it is not found).
  home.viewId = Number((await getPrisma().savedView.create({ data: { tenantId: HOME, ownerId: me.id, name: "Fuzzed", shared: true } })).id);
  home.doomedViewId = Number((await getPrisma().savedView.create({ data: { tenantId: HOME, ownerId: me.id, name: "Doomed", shared: true } })).id);
  home.keyPrefix = (await createApiKey({ tenantId: HOME, name: "fuzz-key", actor: "test" })).summary.prefix;
  const review = await getPrisma().refundReview.create({
    data: { tenantId: HOME, store: "appstore", requestId: "fuzz-review", transactionId: `txn-${order.id}`, orderId: order.id, requestedAt: new Date(), deadlineAt: new Date(Date.now() + 3_600_000) },
  });
  home.reviewId = Number(review.id);
  home.messageId = Number((await getPrisma().outboxMessage.create({ data: { tenantId: HOME, orderId: order.id, topic: "order.transitioned", payload: { fuzz: true }, status: "dead", attempts: 15 } })).id);
  await refreshSettingsVersion();
});

async function refreshSettingsVersion(): Promise<void> {
  home.settingsVersion = (await listTenantSettings([HOME]))[0]!.updatedAt;
}

const reason = fc.constantFrom("checking hostile input", "x");
const later = <T>(read: () => T) => fc.constant(null).map(read);
const minutes = fc.record({ value: fc.constantFrom(30, 0, 2 ** 40), unit: fc.constantFrom("minutes", "hours", "days") });

/** Per action: valid inputs aimed at tenant HOME's resources (the fuzzer mutates them). */
const SAMPLES: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  "orders.trigger-event": fc.record({
    tenant: fc.constant(HOME),
    orderNo: later(() => home.orderNo),
    event: fc.constantFrom(...ORDER_EVENTS),
    reason,
    idempotencyKey: fc.uuid(),
    expectedVersion: fc.nat(4),
    channelKey: fc.uuid(),
    amount: fc.constantFrom("128", "12800", String(2 ** 31)),
  }),
  "orders.grant-line": fc.record({ tenant: fc.constant(HOME), orderNo: later(() => home.orderNo), sku: fc.constant("gems-6480"), quantity: fc.constantFrom(1, 2 ** 40), reason, grantKey: fc.uuid() }),
  "orders.repair-delivery": fc.record({ tenant: fc.constant(HOME), orderNo: later(() => home.orderNo), reason }),
  "orders.add-note": fc.record({ tenant: fc.constant(HOME), orderNo: later(() => home.orderNo), body: fc.constantFrom("player called", "x".repeat(2_001)), noteKey: fc.uuid() }),
  "bulk.preview": fc.record({ tenant: fc.constant(HOME), text: later(() => `${home.orderNo}\nX-404`) }),
  "bulk.start": fc.record({ batchId: fc.uuid({ version: 4 }), tenant: fc.constant(HOME), orderNos: later(() => [home.orderNo]), reason }),
  "bulk.run-chunk": fc.record({ batchId: later(() => home.batchId) }),
  "approvals.decide": fc.record({ id: later(() => home.approvalId), approve: fc.boolean(), reason }),
  "settings.update-dwell": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    created: minutes,
    paid: minutes,
    delivering: minutes,
    refunding: minutes,
  }),
  "settings.update-refund-approval": fc.record({ tenant: fc.constant(HOME), expectedUpdatedAt: later(() => home.settingsVersion), amount: fc.constantFrom("99", "99.50", "1e9", "-1") }),
  "settings.update-apple-store": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    bundleId: fc.constantFrom("com.example.game", "", "not a bundle"),
    environment: fc.constantFrom("Production", "Sandbox", "Xcode"),
  }),
  "settings.update-google-play": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    packageName: fc.constantFrom("com.example.game", "", "not a package", "1com.x"),
    pushAudience: fc.constantFrom("https://console.example.com/push", "", "x".repeat(600)),
    pushServiceAccount: fc.constantFrom("push@example.iam.gserviceaccount.com", "", "not an email"),
  }),
  "settings.update-unpaid-timeout": fc.record({ tenant: fc.constant(HOME), expectedUpdatedAt: later(() => home.settingsVersion), timeout: minutes }),
  "settings.update-refund-reviews": fc.record({ tenant: fc.constant(HOME), expectedUpdatedAt: later(() => home.settingsVersion), autoSend: fc.boolean() }),
  "settings.update-refund-watch": fc.record({ tenant: fc.constant(HOME), expectedUpdatedAt: later(() => home.settingsVersion), percent: fc.constantFrom("30", "", "0", "101", "12.5", "abc") }),
  "settings.update-webhook": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    webhookUrl: fc.constantFrom("https://game.example.com/orderops/webhook", "", "http://127.0.0.1:9/hook", "http://game.example.com/hook", "ftp://x", "https://u:p@game.example.com/", "not a url"),
  }),
  "settings.update-take-back-rules": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    currency: fc.constantFrom("revoke", "negative-balance", "write-off", "confiscate"),
    stamina: fc.constantFrom("revoke", "negative-balance", "write-off"),
    cosmetic: fc.constantFrom("revoke", "write-off", "negative-balance"),
    item: fc.constantFrom("revoke", "write-off", "negative-balance"),
    revokeEndpointUrl: fc.constantFrom("", "https://game.example.com/revoke", "http://127.0.0.1:4010/revoke", "http://game.example.com/revoke", "javascript:alert(1)"),
  }),
  "refund-reviews.send": fc.record({
    reviewId: fc.oneof(later(() => home.reviewId), fc.constantFrom(2 ** 40, -1, "1e3")),
    customerConsented: fc.boolean(),
    refundPreference: fc.constantFrom(0, 1, 2, 3, 4),
  }),
  "deliveries.resend": fc.record({
    messageId: fc.oneof(later(() => home.messageId), fc.constantFrom(2 ** 40, -1, "1e3")),
    reason,
    requestKey: fc.oneof(fc.uuid(), fc.constantFrom("not-a-key", "")),
  }),
  "deliveries.bulk-resend-preview": fc.record({ tenant: fc.constant(HOME), since: fc.constantFrom("2026-01-01T00:00:00Z", "2026-01-01", "yesterday", "2026-13-45", "") }),
  "deliveries.bulk-resend-start": fc.record({
    batchId: fc.oneof(fc.uuid({ version: 4 }), fc.constantFrom("not-a-batch", "")),
    tenant: fc.constant(HOME),
    since: fc.constantFrom("2026-01-01T00:00:00Z", "bad", ""),
    reason,
  }),
  "deliveries.bulk-resend-run": fc.record({ batchId: fc.oneof(later(() => home.resendBatchId), later(() => home.batchId), fc.uuid({ version: 4 })) }),
  "deliveries.test-send": fc.record({ tenant: fc.constant(HOME), endpoint: fc.constantFrom("webhook", "grant", "revoke", "nowhere", "") }),
  "users.create": fc.record({ email: fc.uuid().map((u) => `${u}@example.com`), name: fc.constant("New"), role: fc.constantFrom(...ROLES), tenantIds: fc.constant([HOME]) }),
  "users.update": fc.record({ id: later(() => home.staffId), role: fc.constantFrom(...ROLES), name: fc.constant("Renamed") }),
  "users.reset-password": fc.record({ id: later(() => home.staffId) }),
  "users.set-disabled": fc.record({ id: later(() => home.staffId), disabled: fc.boolean() }),
  "apikeys.create": fc.record({ tenant: fc.constant(HOME), name: fc.uuid().map((u) => `key-${u.slice(0, 8)}`) }),
  "apikeys.revoke": fc.record({ prefix: later(() => home.keyPrefix) }),
  "cases.take": fc.record({ caseId: later(() => caseHome.caseId), reason }),
  "cases.assign": fc.record({ caseId: later(() => caseHome.caseId), assignee: fc.constantFrom("target@example.com", "nobody@example.com"), expectedOwner: fc.constant(""), reason }),
  "cases.resolve": fc.record({ caseId: later(() => caseHome.caseId), resolution: fc.constantFrom(...CHOSEN_RESOLUTIONS), reason, requestKey: fc.uuid() }),
  "cases.dismiss": fc.record({ caseId: later(() => caseHome.caseId), reason, requestKey: fc.uuid() }),
  "cases.refund-resend": fc.record({ caseId: later(() => caseHome.caseId), refundId: fc.constantFrom("rf-any", "", "x".repeat(300)) }),
  "cases.refund-told": fc.record({ caseId: later(() => caseHome.caseId), refundId: fc.constantFrom("rf-any", ""), reason }),
  "settings.update-canned-reasons": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    close: fc.constantFrom("the player asked us to cancel", "x", `${"long ".repeat(200)}\nok reason`),
    refund: fc.constantFrom("", "duplicate purchase\nwrong item bought"),
  }),
  "settings.update-case-sla": fc.record({
    tenant: fc.constant(HOME),
    expectedUpdatedAt: later(() => home.settingsVersion),
    sla: fc.record(Object.fromEntries(EXCEPTION_KINDS.map((kind) => [kind, minutes]))),
  }),
  "views.save": fc.record({
    name: fc.constantFrom("Stuck paid", " ", "x".repeat(61), "退款过多"),
    tenant: fc.constantFrom(HOME, "", OTHER),
    state: fc.constantFrom("paid", "", "PAID"),
    from: fc.constantFrom("2026-11-01", "", "2026-13-45"),
    to: fc.constantFrom("2026-10-01", ""),
    tz: fc.constantFrom("Asia/Shanghai", "US/Pacific-New", ""),
    stuck: fc.constantFrom("1", "", true),
    q: fc.constantFrom("p-1", "", "=cmd"),
  }),
  "views.save-shared": fc.record({ name: fc.uuid(), tenant: fc.constantFrom(HOME, OTHER, ""), state: fc.constantFrom("refunding", ""), stuck: fc.constantFrom("1", "") }),
  "views.rename": fc.record({ id: later(() => home.viewId), name: fc.constantFrom("Renamed", "", "x".repeat(61)) }),
  "views.delete": fc.record({ id: fc.oneof(later(() => home.doomedViewId), fc.constantFrom(2 ** 40, -1, "1e3")) }),
  "profile.set-locale": fc.record({ locale: fc.constantFrom("en", "zh") }),
  "console.check-database": fc.constant({}),
};

/** A form as the browser posts it: every value a string. */
function asForm(input: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(input)) form.append(k, typeof v === "string" ? v : JSON.stringify(v) ?? "");
  return form;
}

type Action = ((input: unknown) => Promise<{ ok: boolean; error?: { code: string; message: string } }>) & {
  permission?: Permission;
  actionName?: string;
};

const actionFiles: string[] = [];
for (const file of await appFiles()) {
  if (/^\s*["']use server["']/.test(await readFile(file, "utf8"))) actionFiles.push(path.relative(process.cwd(), file));
}

describe(`every server action under hostile input (seed ${FUZZ_SEED}; replay with FUZZ_SEED=${FUZZ_SEED})`, () => {
  it("finds the actions (the enumeration itself works)", () => {
    expect(actionFiles.length).toBeGreaterThan(5);
  });

  describe.each(actionFiles)("%s", (relative) => {
    it("answers ok or a refusal that is not internal; a refusal writes nothing", async () => {
      const mod = (await import(/* @vite-ignore */ path.join(process.cwd(), relative))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        const action = value as Action;
        const samples = SAMPLES[action.actionName!];
        expect(samples, `${name} (${action.actionName}): add a sample input to SAMPLES`).toBeDefined();
        const input = fc.oneof(
          { weight: 2, arbitrary: samples! },
          { weight: 4, arbitrary: mutated(samples!) },
          { weight: 2, arbitrary: mutated(samples!).map(asForm) },
          { weight: 1, arbitrary: hostileValue },
        );
        const role = ROLES.find((r) => can(r, action.permission!))!;
        await fc.assert(
          fc.asyncProperty(input, async (raw) => {
            signInAs(role === "agent" || role === "ops" ? "manager" : role, [HOME, OTHER], { id: home.meId, email: "fuzzer@example.com" });
            const before = await rowCounts();
            const result = await action(raw);
            const given = JSON.stringify(raw instanceof FormData ? [...raw.entries()] : raw) ?? String(raw);
            const summary = `${action.actionName}(${given.slice(0, 300)}) → ${JSON.stringify(result).slice(0, 300)}`;
            if (action.actionName!.startsWith("settings.")) await refreshSettingsVersion();
            if (result.ok) return;
            expect(result.error?.code, summary).not.toBe("internal");
            expect(result.error?.message, summary).toEqual(expect.any(String));
            expect(await rowCounts(), summary).toEqual(before);
          }),
          { seed: FUZZ_SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
    });
  });
});

/** A case of tenant HOME (issue 13) for the case actions: a payment that arrived after its order closed. */
const caseHome = { caseId: 0 };

beforeAll(async () => {
  caseHome.caseId = (await paymentAfterClose(HOME)).caseId;
});
