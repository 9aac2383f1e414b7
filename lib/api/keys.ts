import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/retry";
import { maybeOne, prepared, type PreparedStatement, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import type { ApiKey } from "@/lib/generated/prisma/client";
import { ORDER_COLUMNS, orderRow } from "@/lib/orders/rows";
import type { OrderSnapshot } from "@/lib/orders/types";

// API keys: `oo_<id>_<secret>`. The id part finds the row; only a SHA-256 of the secret is stored.
// The secret has 256 bits of entropy, so a fast hash is enough (a slow one would only slow every
// API call): nobody can guess their way back from the hash.
//
// Creating and revoking a key writes its audit row in the same transaction: a key never appears or
// disappears without the trail saying who did it.

const KEY_PATTERN = /^oo_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export interface ApiKeySummary {
  readonly id: number;
  readonly tenantId: string;
  readonly name: string;
  readonly prefix: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** A key as the scope rule resolves it (lib/auth/scope.ts apiKeyScope): already checked against the caller. */
export interface ResolvedApiKey {
  readonly prefix: string;
  readonly tenantId: string;
}

function summaryOf({ secretHash: _hash, id, ...key }: ApiKey): ApiKeySummary {
  return { ...key, id: Number(id) };
}

/** Creates a key and returns it: the only time the full key is ever seen. */
export async function createApiKey(input: { tenantId: string; name: string; actor: string }): Promise<{ key: string; summary: ApiKeySummary }> {
  const prefix = randomBytes(6).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  try {
    const summary = await transaction(
      async ({ prisma }) => {
        const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
        if (!tenant) throw new AppError("not-found", { kind: "unknown-tenants", tenants: [input.tenantId] });
        const key = await prisma.apiKey.create({
          data: { tenantId: input.tenantId, name: input.name, prefix, secretHash: hashSecret(secret), createdBy: input.actor },
        });
        await audit({ actor: input.actor, action: "apikey.created", target: `apikey:${prefix}`, tenantId: input.tenantId, detail: { name: input.name } }, prisma);
        return summaryOf(key);
      },
      { prisma: true },
    );
    return { key: `oo_${prefix}_${secret}`, summary };
  } catch (error) {
    if (isUniqueViolation(error, "api_keys_tenant_id_name_key")) {
      throw new AppError("conflict", { kind: "key-name-taken", tenant: input.tenantId, name: input.name });
    }
    throw error;
  }
}

export async function listApiKeys(tenantIds: readonly string[]): Promise<ApiKeySummary[]> {
  const keys = await getPrisma().apiKey.findMany({
    where: { tenantId: { in: [...tenantIds] } },
    orderBy: [{ tenantId: "asc" }, { createdAt: "desc" }],
  });
  return keys.map(summaryOf);
}

/** One key by its prefix, whatever its tenant: for callers that check the tenant themselves (the CLI). */
export async function findApiKey(prefix: string): Promise<ApiKeySummary | null> {
  const key = await getPrisma().apiKey.findUnique({ where: { prefix } });
  return key ? summaryOf(key) : null;
}

/**
 * Revokes a key at once: its next call answers 401. Revoking a revoked key changes nothing and
 * writes nothing (`revoked: false`).
 */
export async function revokeApiKey(key: ResolvedApiKey, actor: string): Promise<{ revoked: boolean }> {
  return transaction(
    async ({ prisma }) => {
      // The condition on revoked_at makes the first revocation the one that counts, also when two
      // revocations race: the second matches no row.
      const { count } = await prisma.apiKey.updateMany({
        where: { prefix: key.prefix, tenantId: key.tenantId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count === 0) {
        const exists = await prisma.apiKey.findUnique({ where: { prefix: key.prefix }, select: { tenantId: true } });
        if (exists?.tenantId !== key.tenantId) throw new AppError("not-found");
        return { revoked: false };
      }
      await audit({ actor, action: "apikey.revoked", target: `apikey:${key.prefix}`, tenantId: key.tenantId }, prisma);
      return { revoked: true };
    },
    { prisma: true },
  );
}

export interface ApiCaller {
  readonly tenantId: string;
  readonly keyName: string;
  readonly prefix: string;
}

/** The id part of a presented key, for the failure log (never the secret); null when it is not key-shaped. */
export function presentedKeyPrefix(authorization: string): string | null {
  const match = /^Bearer\s+oo_([a-z0-9]{12})_/i.exec(authorization);
  return match ? match[1]!.toLowerCase() : null;
}

const callerRow = z.object({ tenantId: z.string(), name: z.string(), secretHash: z.string() });

/** The caller behind `Authorization: Bearer <key>`, or null for a missing, malformed, unknown or revoked key. */
export async function authenticateApiKey(authorization: string | null): Promise<ApiCaller | null> {
  return (await authenticate(getPool(), authorization, null))?.caller ?? null;
}

/**
 * authenticateApiKey(), and the key's tenant's order `orderNo` (null when it has none) in the same
 * statement: one round trip for the routes whose path names an order. The order is only read when
 * the presented secret's hash is the key's, so a call that does not authenticate reads no order.
 * With `lockIn` (a transaction's connection) the statement runs there and also takes the order's
 * row lock: the first round trip of an API call that changes the order (transit's lock step).
 */
export async function authenticateApiKeyForOrder(
  authorization: string | null,
  orderNo: string,
  lockIn?: Queryable,
): Promise<{ caller: ApiCaller; order: OrderSnapshot | null } | null> {
  const found = lockIn
    ? await authenticate(lockIn, authorization, { orderNo, statement: KEY_CALLER_AND_LOCKED_ORDER })
    : await authenticate(getPool(), authorization, { orderNo, statement: KEY_CALLER_AND_ORDER });
  return found ? { caller: found.caller, order: found.order ?? null } : null;
}

const callerWithOrderRow = callerRow.extend({ order: orderRow.nullable() });

// Every API call passes here, so raw SQL, one round trip, prepared (lib/db/sql.ts): look the key up
// and note its use. last_used_at is only written once a minute per key, so a busy key does not turn
// every call into a write.
// In the locking form the statement runs inside transit's transaction, so that minute's touch
// holds the key's row until the pay commits: the key's other calls in that moment wait for it once.
const KEY_CTE = `WITH k AS (SELECT id, tenant_id, name, secret_hash, last_used_at FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL),
          touch AS (UPDATE api_keys SET last_used_at = now() WHERE id = (SELECT id FROM k)
                    AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute'))`;
const KEY_CALLER = prepared("api-key.caller", `${KEY_CTE} SELECT tenant_id AS "tenantId", name, secret_hash AS "secretHash" FROM k`);
const keyAndOrder = (lock: string) => `${KEY_CTE}
   SELECT k.tenant_id AS "tenantId", k.name, k.secret_hash AS "secretHash",
          CASE WHEN k.secret_hash = $3 THEN (SELECT row_to_json(o) FROM (SELECT ${ORDER_COLUMNS} FROM orders
            WHERE tenant_id = k.tenant_id AND order_no = $2${lock}) o) END AS "order"
   FROM k`;
const KEY_CALLER_AND_ORDER = prepared("api-key.caller-and-order", keyAndOrder(""));
const KEY_CALLER_AND_LOCKED_ORDER = prepared("api-key.caller-and-locked-order", keyAndOrder(" FOR UPDATE"));

/** The key behind `authorization`, and with `order` the order it names, read by the statement given. */
async function authenticate(
  db: Queryable,
  authorization: string | null,
  order: { readonly orderNo: string; readonly statement: PreparedStatement } | null = null,
): Promise<{ caller: ApiCaller; order?: OrderSnapshot | null } | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  const parts = match ? KEY_PATTERN.exec(match[1]!) : null;
  if (!parts) return null;
  const [, prefix, secret] = parts;
  const hash = hashSecret(secret!);
  const row: (z.output<typeof callerRow> & { readonly order?: OrderSnapshot | null }) | null =
    order === null
      ? await maybeOne(db, callerRow, KEY_CALLER, [prefix])
      : await maybeOne(db, callerWithOrderRow, order.statement, [prefix, order.orderNo, hash]);
  if (!row) return null;
  const given = Buffer.from(hash, "hex");
  const stored = Buffer.from(row.secretHash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  const caller = { tenantId: row.tenantId, keyName: row.name, prefix: prefix! };
  return order === null ? { caller } : { caller, order: row.order ?? null };
}
