"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ME_KEY } from "@/components/navigation/console-frame";

/** After a view was saved, renamed or deleted: the navigation and the orders list read theirs again. */
export function useViewsChanged(): () => Promise<void> {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: ME_KEY }), client.invalidateQueries({ queryKey: ["orders-list"] })]).then(() => undefined);
}
