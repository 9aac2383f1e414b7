import { z } from "zod";
import { checkRange, VIEW_NAME_MAX, viewFilterFields } from "@/lib/views/view-filters";

// The inputs the saved-view actions share: a view's name, its id, and the orders page's filters.

export const viewName = z.string().trim().min(1).max(VIEW_NAME_MAX);

export const viewId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const fields = { name: viewName, ...viewFilterFields };

/** A view being saved: its name and the filters on screen, as the orders page's form names them. */
export const newView = z.object(fields).superRefine(checkRange);

/** A shared view is shared with one product's staff, so it needs the product. */
export const newSharedView = z.object({ ...fields, tenant: z.string().trim().min(1).max(64) }).superRefine(checkRange);
