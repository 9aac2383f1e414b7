"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { savedViewScope } from "@/lib/views/saved-view-scope";
import { renameView } from "@/lib/views/saved-views";
import { viewHref } from "@/lib/views/view-filters";
import { viewId, viewName } from "./view-input";

const input = z.object({ id: viewId, name: viewName });

/** Renames one's own view (a shared one: its creator or a manager; savedViewScope decides). */
export const renameViewAction = defineAction(
  { name: "views.rename", permission: "orders:view", input, scope: savedViewScope((v: z.output<typeof input>) => v.id) },
  async ({ name }, { actor, resource }) => {
    const view = await renameView(resource, name, actor);
    return { id: view.id, name: view.name, href: viewHref(view) };
  },
);
