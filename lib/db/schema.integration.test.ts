import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CASE_SLA } from "@/lib/cases/model";
import { Prisma } from "@/lib/generated/prisma/client";
import { useFreshDatabase } from "@/lib/test/database";
import { getPool } from "./pool";
import { getPrisma } from "./prisma";

// schema.prisma (the client's types) and prisma/migrations (the real tables) are written by hand
// on these machines, so this proves they agree: the same tables with the same columns, and every
// model written and read back through the client on a freshly migrated database.

useFreshDatabase();

const TABLES: Readonly<Record<Prisma.ModelName, string>> = {
  Tenant: "tenants",
  TenantSettings: "tenant_settings",
  Order: "orders",
  OrderLine: "order_lines",
  Grant: "grants",
  OrderTransition: "order_transitions",
  OutboxMessage: "outbox_messages",
  OutboxAttempt: "outbox_attempts",
  OutboxResend: "outbox_resends",
  OrderException: "order_exceptions",
  StaffUser: "staff_users",
  ApiKey: "api_keys",
  AuditEvent: "audit_events",
  RefundApproval: "refund_approvals",
  BulkBatch: "bulk_batches",
  BulkBatchItem: "bulk_batch_items",
  OrderNote: "order_notes",
  AuditChainHead: "audit_chain_heads",
  AuditChainSeal: "audit_chain_seals",
  AuditCheckpoint: "audit_checkpoints",
  PaymentRefund: "payment_refunds",
  SavedView: "saved_views",
  StoreNotification: "store_notifications",
  StorePurchase: "store_purchases",
  StorePollCursor: "store_poll_cursors",
  RefundReview: "refund_reviews",
  TakeBack: "take_backs",
  RateWindow: "rate_windows",
  OrderPresence: "order_presence",
};

const FIELDS: Readonly<Record<Prisma.ModelName, Record<string, string>>> = {
  Tenant: Prisma.TenantScalarFieldEnum,
  TenantSettings: Prisma.TenantSettingsScalarFieldEnum,
  Order: Prisma.OrderScalarFieldEnum,
  OrderLine: Prisma.OrderLineScalarFieldEnum,
  Grant: Prisma.GrantScalarFieldEnum,
  OrderTransition: Prisma.OrderTransitionScalarFieldEnum,
  OutboxMessage: Prisma.OutboxMessageScalarFieldEnum,
  OutboxAttempt: Prisma.OutboxAttemptScalarFieldEnum,
  OutboxResend: Prisma.OutboxResendScalarFieldEnum,
  OrderException: Prisma.OrderExceptionScalarFieldEnum,
  StaffUser: Prisma.StaffUserScalarFieldEnum,
  ApiKey: Prisma.ApiKeyScalarFieldEnum,
  AuditEvent: Prisma.AuditEventScalarFieldEnum,
  RefundApproval: Prisma.RefundApprovalScalarFieldEnum,
  BulkBatch: Prisma.BulkBatchScalarFieldEnum,
  BulkBatchItem: Prisma.BulkBatchItemScalarFieldEnum,
  OrderNote: Prisma.OrderNoteScalarFieldEnum,
  AuditChainHead: Prisma.AuditChainHeadScalarFieldEnum,
  AuditChainSeal: Prisma.AuditChainSealScalarFieldEnum,
  AuditCheckpoint: Prisma.AuditCheckpointScalarFieldEnum,
  PaymentRefund: Prisma.PaymentRefundScalarFieldEnum,
  SavedView: Prisma.SavedViewScalarFieldEnum,
  StoreNotification: Prisma.StoreNotificationScalarFieldEnum,
  StorePurchase: Prisma.StorePurchaseScalarFieldEnum,
  StorePollCursor: Prisma.StorePollCursorScalarFieldEnum,
  RefundReview: Prisma.RefundReviewScalarFieldEnum,
  TakeBack: Prisma.TakeBackScalarFieldEnum,
  RateWindow: Prisma.RateWindowScalarFieldEnum,
  OrderPresence: Prisma.OrderPresenceScalarFieldEnum,
};

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe("schema.prisma agrees with the SQL migrations", () => {
  it("has exactly the migrated tables, each with exactly the model's columns", async () => {
    const { rows } = await getPool().query<{ table_name: string; columns: string[] }>(
      `SELECT table_name, array_agg(column_name::text ORDER BY column_name) AS columns
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
         AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
       GROUP BY table_name ORDER BY table_name`,
    );
    const expected = Object.entries(TABLES)
      .map(([model, table]) => ({ table_name: table, columns: Object.values(FIELDS[model as Prisma.ModelName]).map(snake).sort() }))
      .sort((a, b) => a.table_name.localeCompare(b.table_name));
    expect(rows).toEqual(expected);
    expect(Object.keys(TABLES).sort()).toEqual(Object.values(Prisma.ModelName).sort());
  });

  it("the case SLA default names every kind of case with the model's SLA, in the migrations and in schema.prisma", async () => {
    const { rows } = await getPool().query<{ sla: string }>(
      `SELECT column_default AS sla FROM information_schema.columns WHERE table_name = 'tenant_settings' AND column_name = 'case_sla_seconds'`,
    );
    const migrated = /^'(.*)'::jsonb$/s.exec(rows[0]?.sla ?? "")?.[1];
    expect(migrated).toBeDefined();
    expect(JSON.parse(migrated!.replaceAll("''", "'"))).toEqual(DEFAULT_CASE_SLA);
    const schema = await readFile(path.join(process.cwd(), "prisma", "schema.prisma"), "utf8");
    const literal = /caseSlaSeconds\s+Json\s+@default\("((?:[^"\\]|\\.)*)"\)/.exec(schema)?.[1];
    expect(literal).toBeDefined();
    expect(JSON.parse(literal!.replaceAll('\\"', '"'))).toEqual(DEFAULT_CASE_SLA);
  });

  it("writes and reads every model through the client", async () => {
    const db = getPrisma();
    await db.tenant.create({ data: { id: "schema-check", name: "Schema", currency: "CNY" } });
    await db.tenantSettings.create({
      data: {
        tenantId: "schema-check",
        unpaidTimeoutSeconds: 900,
        maxDwellSeconds: { paid: 300 },
        refundApprovalAmount: 10_000,
        deliveryMode: "external",
        signingSecret: "s",
      },
    });
    const order = await db.order.create({
      data: { tenantId: "schema-check", orderNo: "S-1", playerId: "p", amount: 600, currency: "CNY", state: "created", stateAt: new Date() },
    });
    await db.orderLine.create({ data: { tenantId: "schema-check", orderId: order.id, sku: "gems", kind: "currency", quantity: 60 } });
    await db.grant.create({ data: { tenantId: "schema-check", orderId: order.id, sku: "gems", grantId: "g", quantity: 60, source: "api", actor: "a" } });
    await db.orderTransition.create({
      data: { tenantId: "schema-check", orderId: order.id, event: "pay", fromState: "created", toState: "paid", actor: "a", source: "api" },
    });
    const message = await db.outboxMessage.create({ data: { tenantId: "schema-check", orderId: order.id, topic: "t", payload: { a: 1 } } });
    await db.outboxAttempt.create({ data: { tenantId: "schema-check", messageId: message.id, url: "https://example.com/hook", attemptedAt: new Date(), status: 200, latencyMs: 12, requestHeaders: { "x-orderops-message-id": String(message.id) } } });
    await db.outboxResend.create({ data: { tenantId: "schema-check", messageId: message.id, requestKey: "k", actor: "a", reason: "r" } });
    const exception = await db.orderException.create({ data: { tenantId: "schema-check", orderId: order.id, kind: "amount-mismatch", actor: "a" } });
    // The database sets the case's due time from the tenant's SLA (trigger order_exceptions_sla): 4 hours by default.
    expect(exception.slaDueAt.getTime() - exception.createdAt.getTime()).toBe(4 * 3_600_000);
    await db.paymentRefund.create({
      data: {
        tenantId: "schema-check",
        refundId: "rf-1",
        orderId: order.id,
        caseId: exception.id,
        channel: "alipay",
        paymentTxn: "alipay-1",
        paymentAmount: 600,
        amount: 100,
        currency: "CNY",
        reason: "r",
        requestedBy: "a",
      },
    });
    const staff = await db.staffUser.create({ data: { email: "s@example.com", name: "S", passwordHash: "h", role: "agent", tenantIds: ["schema-check"] } });
    await db.savedView.create({ data: { tenantId: "schema-check", ownerId: staff.id, name: "Stuck paid", shared: true, filters: { state: "paid", stuck: true } } });
    await db.apiKey.create({ data: { tenantId: "schema-check", name: "k", prefix: "oo_abc", secretHash: "h", createdBy: "a" } });
    await db.auditEvent.create({ data: { actor: "a", action: "user.created", detail: { x: 1 } } });
    await db.refundApproval.create({ data: { tenantId: "schema-check", orderId: order.id, amount: 600, requestedBy: "a", reason: "r", requestKey: "k" } });
    await db.bulkBatch.create({
      data: { id: "b1", tenantId: "schema-check", createdBy: "a", reason: "r", total: 1, items: { create: [{ tenantId: "schema-check", orderNo: "S-1", position: 0 }] } },
    });

    await db.orderNote.create({ data: { tenantId: "schema-check", orderId: order.id, author: "a", body: "called the player" } });
    await db.auditCheckpoint.create({ data: { heads: [], facts: 0, hash: Buffer.from("h") } });
    await db.storePurchase.create({ data: { tenantId: "schema-check", store: "appstore", transactionId: "t-1", originalTransactionId: "t-1", orderId: order.id } });
    await db.storePollCursor.create({ data: { tenantId: "schema-check", store: "googleplay", cursorAt: new Date(), polledAt: new Date() } });
    await db.storeNotification.create({
      data: {
        tenantId: "schema-check",
        store: "appstore",
        notificationId: "n-1",
        type: "REFUND",
        environment: "Sandbox",
        transactionId: "t-1",
        originalTransactionId: "t-1",
        orderId: order.id,
        signedAt: new Date(),
        outcome: "applied",
        payload: { notificationType: "REFUND" },
      },
    });
    await db.refundReview.create({
      data: { tenantId: "schema-check", store: "appstore", requestId: "n-2", transactionId: "t-1", orderId: order.id, requestedAt: new Date(), deadlineAt: new Date() },
    });
    await db.takeBack.create({
      data: { tenantId: "schema-check", orderId: order.id, playerId: "p", sku: "gems", kind: "currency", grantId: "refund:r", units: -60, rule: "revoke", status: "pending" },
    });
    await db.rateWindow.create({ data: { scope: "api-key-failures", key: "203.0.113.7", count: 1, endsAt: new Date() } });
    await db.orderPresence.create({ data: { tenantId: "schema-check", orderId: order.id, staffId: 1n, tabId: "6f1f8f3e-2a8b-4c55-9d1e-0c6a3c2b1a00", expiresAt: new Date() } });

    const counts = await Promise.all([
      db.tenant.count(),
      db.tenantSettings.count(),
      db.order.count(),
      db.orderLine.count(),
      db.grant.count(),
      db.orderTransition.count(),
      db.outboxMessage.count(),
      db.outboxAttempt.count(),
      db.outboxResend.count(),
      db.orderException.count(),
      db.staffUser.count(),
      db.apiKey.count(),
      db.auditEvent.count(),
      db.refundApproval.count(),
      db.bulkBatch.count(),
      db.bulkBatchItem.count(),
      db.orderNote.count(),
      db.auditCheckpoint.count(),
      db.paymentRefund.count(),
      db.savedView.count(),
      db.storePurchase.count(),
      db.storeNotification.count(),
      db.storePollCursor.count(),
      db.refundReview.count(),
      db.takeBack.count(),
      db.rateWindow.count(),
      db.orderPresence.count(),
    ]);
    expect(counts).toEqual(counts.map(() => 1));
    // Every fact written above joined a chain, whose heads the trigger keeps: the order's on its
    // row, the audit row without a tenant's in audit_chain_heads.
    expect(await db.auditChainHead.count()).toBe(1);
    expect((await db.order.findFirstOrThrow({ where: { tenantId: "schema-check" } })).chainSeq).toBeGreaterThan(0n);
    const read = await db.order.findUniqueOrThrow({
      where: { tenantId_orderNo: { tenantId: "schema-check", orderNo: "S-1" } },
      include: { lines: true, grants: true, transitions: true },
    });
    expect(read).toMatchObject({ state: "created", version: 0, lines: [{ sku: "gems" }], grants: [{ grantId: "g" }], transitions: [{ bizKey: "" }] });
  });

  it("refuses a state outside the seven names", async () => {
    await expect(
      getPool().query(
        `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state) VALUES ('schema-check', 'S-2', 'p', 1, 'CNY', 'PAID')`,
      ),
    ).rejects.toThrow(/orders_state_check/);
  });
});
