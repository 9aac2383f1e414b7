import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { maybeOne, rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { logger } from "@/lib/log";
import { audit } from "./record";
import { CHECKPOINT_HASH_SQL, firstBrokenIn, UTC_SESSION, type Broken } from "./chain";

// The worker's audit checkpoint: verify what was written since the last checkpoint, then seal it.
// Every chain that grew since it was last sealed is checked from its last sealed fact on (hashes,
// links, positions); if all hold, one checkpoint row records each such chain's head, chained to the
// previous checkpoint, and the heads are marked sealed. A broken link is recorded as an audit fact
// (audit.chain-broken) and nothing is sealed past it. The audit explorer shows the newest state.

/** Chains sealed per checkpoint at most; the job runs again at once while more are waiting. */
const CHAINS_PER_CHECKPOINT = 5_000;
/** Checkpoints one at a time: two at once would both chain to the same previous one. */
const CHECKPOINT_LOCK = 0x4155_4454; // "AUDT"

export type CheckpointReport =
  | { readonly result: "nothing-new" }
  | { readonly result: "sealed"; readonly checkpoint: number; readonly chains: number; readonly facts: number; readonly more: boolean }
  | { readonly result: "broken"; readonly broken: Broken }
  | { readonly result: "busy" };

const movedRow = z.object({ tenantId: z.string(), orderId: z.number(), seq: z.number(), sealedSeq: z.number(), hash: z.string() });

export async function sealCheckpoint(pool: pg.Pool = getPool()): Promise<CheckpointReport> {
  const report = await transaction(
    async ({ client }): Promise<CheckpointReport> => {
      const locked = await maybeOne(client, z.object({ locked: z.boolean() }), `SELECT pg_try_advisory_xact_lock($1) AS locked`, [CHECKPOINT_LOCK]);
      if (!locked?.locked) return { result: "busy" };
      const moved = await rows(
        client,
        movedRow,
        `SELECT tenant_id AS "tenantId", order_id AS "orderId", seq, sealed_seq AS "sealedSeq", encode(hash, 'hex') AS hash
         FROM audit_chain_tips WHERE seq > sealed_seq ORDER BY tenant_id, order_id LIMIT $1`,
        [CHAINS_PER_CHECKPOINT + 1],
      );
      if (moved.length === 0) return { result: "nothing-new" };
      const batch = moved.slice(0, CHAINS_PER_CHECKPOINT);
      const broken = await firstBrokenIn(
        client,
        batch.map((m) => ({ tenantId: m.tenantId, orderId: m.orderId, fromSeq: Math.max(m.sealedSeq, 1), toSeq: m.seq })),
      );
      if (broken) return { result: "broken", broken };

      const heads = batch.map((m) => ({ t: m.tenantId, o: m.orderId, seq: m.seq, hash: m.hash }));
      const facts = batch.reduce((n, m) => n + m.seq - m.sealedSeq, 0);
      const sealed = await maybeOne(
        client,
        z.object({ id: z.number() }),
        `INSERT INTO audit_checkpoints (heads, facts, prev_hash, hash)
         SELECT c.heads, c.facts, c.prev_hash, ${CHECKPOINT_HASH_SQL}
         FROM (SELECT $1::jsonb AS heads, $2::bigint AS facts,
                      (SELECT hash FROM audit_checkpoints ORDER BY id DESC LIMIT 1) AS prev_hash) c
         RETURNING id`,
        [JSON.stringify(heads), facts],
      );
      // A chain with an order keeps its seal in audit_chain_seals (its head is on the order's row);
      // any other in audit_chain_heads.
      const sealedHeads = [batch.map((m) => m.tenantId), batch.map((m) => m.orderId), batch.map((m) => m.seq)];
      await client.query(
        `UPDATE audit_chain_heads h SET sealed_seq = m.seq
         FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS m(t, o, seq)
         WHERE h.tenant_id = m.t AND h.order_id = m.o AND h.sealed_seq < m.seq`,
        sealedHeads,
      );
      await client.query(
        `INSERT INTO audit_chain_seals AS s (tenant_id, order_id, sealed_seq)
         SELECT m.t, m.o, m.seq FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS m(t, o, seq)
         WHERE EXISTS (SELECT 1 FROM orders WHERE orders.id = m.o AND orders.tenant_id = m.t)
         ON CONFLICT (tenant_id, order_id) DO UPDATE SET sealed_seq = greatest(s.sealed_seq, EXCLUDED.sealed_seq)`,
        sealedHeads,
      );
      return { result: "sealed", checkpoint: sealed!.id, chains: batch.length, facts, more: moved.length > batch.length };
    },
    { pool, setLocal: [UTC_SESSION] },
  );
  if (report.result === "broken") {
    logger.error({ broken: report.broken }, "audit chain broken: nothing sealed past it");
    await audit({ actor: "system:audit", action: "audit.chain-broken", detail: { ...report.broken } });
  }
  return report;
}

export interface ChainStatus {
  /** The newest checkpoint: everything up to it was verified when it was sealed. */
  readonly checkpoint: { readonly id: number; readonly at: Date; readonly facts: number } | null;
  /** A broken link found after that checkpoint, if any. */
  readonly broken: { readonly at: Date; readonly detail: Broken } | null;
}

/** What the audit explorer shows: "chain verified up to #N at <time>", or that it is broken. */
export async function chainStatus(): Promise<ChainStatus> {
  const prisma = getPrisma();
  const [checkpoint, facts, broken] = await Promise.all([
    prisma.auditCheckpoint.findFirst({ orderBy: { id: "desc" }, select: { id: true, createdAt: true } }),
    prisma.auditCheckpoint.aggregate({ _sum: { facts: true } }),
    prisma.auditEvent.findFirst({ where: { action: "audit.chain-broken" }, orderBy: { id: "desc" }, select: { createdAt: true, detail: true } }),
  ]);
  return {
    checkpoint: checkpoint ? { id: Number(checkpoint.id), at: checkpoint.createdAt, facts: Number(facts._sum.facts ?? 0) } : null,
    broken: broken && (!checkpoint || broken.createdAt > checkpoint.createdAt) ? { at: broken.createdAt, detail: broken.detail as unknown as Broken } : null,
  };
}
