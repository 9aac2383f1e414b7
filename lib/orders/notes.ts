import "server-only";
import { getPrisma } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/retry";
import { AppError } from "@/lib/errors";
import type { OrderSnapshot } from "./types";

// Internal notes on an order: what staff found out or promised, for the next person who opens it.
// Never sent to players or webhooks (no outbox message). Append-only: a correction is a new note
// naming the one it corrects. Each note is an audit fact of the order's chain (the database links it).

export const MAX_NOTE_LENGTH = 2_000;

export interface OrderNote {
  readonly id: number;
  readonly author: string;
  readonly body: string;
  readonly correctsId: number | null;
  readonly at: Date;
}

export type AddNoteResult = { readonly result: "added" | "duplicate"; readonly note: OrderNote };

type OrderRef = Pick<OrderSnapshot, "id" | "tenantId">;

/**
 * Adds a note. `requestKey` (made by the form, once per note it sends) makes a resubmission — a
 * double click, a retry after a timeout — the same note (`duplicate`), never a second one.
 *
 * The key is looked up first and the unique (tenant, order, request_key) index is only the
 * backstop for two submissions at once: the losing insert fails as a whole, taking back the chain
 * head its trigger had already moved — an ON CONFLICT DO NOTHING would skip the row after the
 * trigger linked it and leave a gap in the order's chain.
 */
export async function addNote(input: { order: OrderRef; author: string; body: string; correctsId?: number; requestKey?: string }): Promise<AddNoteResult> {
  const prisma = getPrisma();
  const { order, requestKey } = input;
  const sameKey = async () =>
    requestKey === undefined ? null : prisma.orderNote.findUnique({ where: { tenantId_orderId_requestKey: { tenantId: order.tenantId, orderId: order.id, requestKey } } });

  const earlier = await sameKey();
  if (earlier) return { result: "duplicate", note: toNote(earlier) };
  if (input.correctsId !== undefined) {
    // Only a note of the same order can be corrected.
    const corrected = await prisma.orderNote.findFirst({ where: { id: input.correctsId, orderId: order.id, tenantId: order.tenantId }, select: { id: true } });
    if (!corrected) throw new AppError("not-found");
  }
  try {
    const note = await prisma.orderNote.create({
      data: { tenantId: order.tenantId, orderId: order.id, author: input.author, body: input.body, correctsId: input.correctsId ?? null, requestKey: requestKey ?? null },
    });
    return { result: "added", note: toNote(note) };
  } catch (error) {
    // The twin submission won the race: its note is this one.
    const twin = isUniqueViolation(error) ? await sameKey() : null;
    if (twin) return { result: "duplicate", note: toNote(twin) };
    throw error;
  }
}

export async function listNotes(order: OrderRef): Promise<OrderNote[]> {
  const notes = await getPrisma().orderNote.findMany({ where: { tenantId: order.tenantId, orderId: order.id }, orderBy: { id: "desc" } });
  return notes.map(toNote);
}

function toNote(n: { id: bigint; author: string; body: string; correctsId: bigint | null; createdAt: Date }): OrderNote {
  return { id: Number(n.id), author: n.author, body: n.body, correctsId: n.correctsId === null ? null : Number(n.correctsId), at: n.createdAt };
}
