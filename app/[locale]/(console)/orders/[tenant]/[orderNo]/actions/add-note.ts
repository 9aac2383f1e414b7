"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { orderScope } from "@/lib/auth/scope";
import { addNote as writeNote, MAX_NOTE_LENGTH } from "@/lib/orders/notes";
import { because } from "@/lib/validation";

const input = z.object({
  tenant: z.string().min(1),
  orderNo: z.string().min(1),
  // Counted in characters as the database counts them (code points), not UTF-16 units.
  body: z
    .string()
    .trim()
    .min(1)
    .refine((text) => [...text].length <= MAX_NOTE_LENGTH, because({ kind: "too-long", max: MAX_NOTE_LENGTH })),
  /** The note this one corrects (notes are never edited). */
  correctsId: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().positive().optional()),
  /** Made when the composer opened: sending it twice is one note. */
  noteKey: z.uuid(),
});

export type AddNoteOutcome = { readonly result: "added" | "duplicate"; readonly id: number };

/**
 * An internal note on an order: anyone who may see the order may write one. Staff only — it is
 * never sent to the player or to a webhook (lib/orders/notes.ts writes no outbox message).
 */
export const addNote = defineAction(
  { name: "orders.add-note", permission: "orders:view", input, scope: orderScope((v: z.output<typeof input>) => v) },
  async (v, { actor, resource: order }): Promise<AddNoteOutcome> => {
    const { result, note } = await writeNote({
      order,
      author: actor,
      body: v.body,
      requestKey: v.noteKey,
      ...(v.correctsId !== undefined ? { correctsId: v.correctsId } : {}),
    });
    return { result, id: note.id };
  },
);
