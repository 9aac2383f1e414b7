"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { saveView } from "@/lib/views/saved-views";
import { viewFiltersOf, viewHref } from "@/lib/views/view-filters";
import { newSharedView as input } from "./view-input";

// lib/auth/permissions.ts says who may share a view, and why.

/** Saves the orders list's filters as a view every staff member of the product sees. */
export const saveSharedViewAction = defineAction(
  { name: "views.save-shared", permission: "views:share", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { staff, resource }) => {
    const view = await saveView({ owner: staff, name: v.name, tenantId: resource.tenantId, shared: true, filters: viewFiltersOf(v) });
    return { id: view.id, href: viewHref(view) };
  },
);
