"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { savedViewScope } from "@/lib/views/saved-view-scope";
import { deleteView } from "@/lib/views/saved-views";
import { viewId } from "./view-input";

const input = z.object({ id: viewId });

/** Deletes one's own view (a shared one: its creator or a manager; savedViewScope decides). */
export const deleteViewAction = defineAction(
  { name: "views.delete", permission: "orders:view", input, scope: savedViewScope((v: z.output<typeof input>) => v.id) },
  async (_, { actor, resource }) => {
    const result = await deleteView(resource, actor);
    return result;
  },
);
