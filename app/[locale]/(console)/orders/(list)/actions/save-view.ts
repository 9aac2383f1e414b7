"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { optionalTenantScope } from "@/lib/auth/scope";
import { saveView } from "@/lib/views/saved-views";
import { viewFiltersOf, viewHref } from "@/lib/views/view-filters";
import { newView } from "./view-input";

/** Saves the orders list's filters as a personal view (every one who sees orders may keep their own). */
export const saveViewAction = defineAction(
  { name: "views.save", permission: "orders:view", input: newView, scope: optionalTenantScope((v: z.output<typeof newView>) => v.tenant) },
  async (v, { staff, resource }) => {
    const view = await saveView({ owner: staff, name: v.name, tenantId: resource.tenantId, shared: false, filters: viewFiltersOf(v) });
    return { id: view.id, href: viewHref(view) };
  },
);
