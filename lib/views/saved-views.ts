import "server-only";
import { audit } from "@/lib/audit/record";
import type { Staff } from "@/lib/auth/staff";
import { actorOf } from "@/lib/auth/staff";
import { getPrisma } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/retry";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { readViewFilters, type ViewFilters } from "./view-filters";

// Saved views of the orders list (lib/views/view-filters.ts says what one remembers). Every change
// is configuration: its audit fact is written in the same transaction, so a view never appears,
// changes name or disappears without a fact saying who did it.

export interface SavedView {
  readonly id: number;
  readonly tenantId: string | null;
  readonly ownerId: number;
  /** Who saved it, as the audit trail names staff ("staff:ann@example.com"). */
  readonly ownerActor: string;
  readonly name: string;
  readonly shared: boolean;
  readonly filters: ViewFilters;
}

/** The names of the unique indexes on a list's names (migration 20261203180000_saved_views). */
const NAME_KEYS = ["saved_views_personal_name_key", "saved_views_shared_name_key"] as const;

type Row = { id: bigint; tenantId: string | null; ownerId: bigint; name: string; shared: boolean; filters: unknown; owner: { email: string } };

const SELECT = { id: true, tenantId: true, ownerId: true, name: true, shared: true, filters: true, owner: { select: { email: true } } } as const;

function viewOf(row: Row): SavedView {
  return {
    id: Number(row.id),
    tenantId: row.tenantId,
    ownerId: Number(row.ownerId),
    ownerActor: actorOf(row.owner),
    name: row.name,
    shared: row.shared,
    filters: readViewFilters(row.filters),
  };
}

function nameTaken(error: unknown, name: string): never {
  if (NAME_KEYS.some((key) => isUniqueViolation(error, key))) throw new AppError("conflict", { kind: "view-name-taken", name });
  throw error;
}

/**
 * The views in a staff member's navigation: their own personal views, and the shared views of their
 * products, each list by name. A personal view of a product they no longer have is left out (it
 * would open on a filter the page refuses). One query (every page load reads it, with the frame).
 */
export async function listViews(staff: Pick<Staff, "id" | "tenantIds">): Promise<{ personal: SavedView[]; shared: SavedView[] }> {
  const tenants = [...staff.tenantIds];
  const rows = await getPrisma().savedView.findMany({
    where: {
      OR: [
        { ownerId: staff.id, shared: false, OR: [{ tenantId: null }, { tenantId: { in: tenants } }] },
        { shared: true, tenantId: { in: tenants } },
      ],
    },
    select: SELECT,
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const views = rows.map(viewOf);
  return { personal: views.filter((v) => !v.shared), shared: views.filter((v) => v.shared) };
}

/** One view by id, whoever may see it: callers go through the scope rule (savedViewScope). */
export async function findView(id: number): Promise<SavedView | null> {
  const row = await getPrisma().savedView.findUnique({ where: { id }, select: SELECT });
  return row ? viewOf(row) : null;
}

export interface SaveView {
  readonly owner: Pick<Staff, "id" | "email">;
  readonly name: string;
  /** Required for a shared view (the database refuses one without). */
  readonly tenantId: string | null;
  readonly shared: boolean;
  readonly filters: ViewFilters;
}

export async function saveView(input: SaveView): Promise<SavedView> {
  try {
    return await transaction(
      async ({ prisma }) => {
        const row = await prisma.savedView.create({
          data: { ownerId: input.owner.id, tenantId: input.tenantId, name: input.name, shared: input.shared, filters: input.filters as object },
          select: SELECT,
        });
        await audit(
          {
            actor: actorOf(input.owner),
            action: "view.saved",
            target: `view:${row.id}`,
            tenantId: input.tenantId,
            detail: { name: input.name, shared: input.shared, filters: input.filters },
          },
          prisma,
        );
        return viewOf(row);
      },
      { prisma: true },
    );
  } catch (error) {
    return nameTaken(error, input.name);
  }
}

/** Renames a view the caller may edit (resolved by savedViewScope). The same name again changes nothing. */
export async function renameView(view: SavedView, name: string, actor: string): Promise<SavedView> {
  if (name === view.name) return view;
  try {
    return await transaction(
      async ({ prisma }) => {
        const row = await prisma.savedView.update({ where: { id: view.id }, data: { name, updatedAt: new Date() }, select: SELECT });
        await audit(
          { actor, action: "view.renamed", target: `view:${view.id}`, tenantId: view.tenantId, detail: { before: view.name, after: name, shared: view.shared } },
          prisma,
        );
        return viewOf(row);
      },
      { prisma: true },
    );
  } catch (error) {
    return nameTaken(error, name);
  }
}

/** Deletes a view the caller may edit. A view already gone (a second click, a colleague) is no error. */
export async function deleteView(view: SavedView, actor: string): Promise<{ deleted: boolean }> {
  return transaction(
    async ({ prisma }) => {
      const { count } = await prisma.savedView.deleteMany({ where: { id: view.id } });
      if (count === 0) return { deleted: false };
      await audit(
        { actor, action: "view.deleted", target: `view:${view.id}`, tenantId: view.tenantId, detail: { name: view.name, shared: view.shared, filters: view.filters } },
        prisma,
      );
      return { deleted: true };
    },
    { prisma: true },
  );
}
