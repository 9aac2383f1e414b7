"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, useContext, useState, type ReactNode } from "react";

/** TanStack Query for the console's views: each reads its read model (lib/read/) from a console route. */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 2_000, refetchOnWindowFocus: true, retry: 1 } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const RefreshView = createContext<() => Promise<void>>(async () => {});

/**
 * What a view's forms call once they changed something: the view reads its data again (its query
 * is refetched; nothing is rendered on the server). Given by the view that owns the query.
 */
export function RefreshViewProvider({ refresh, children }: { refresh: () => Promise<void>; children: ReactNode }) {
  return <RefreshView.Provider value={refresh}>{children}</RefreshView.Provider>;
}

export function useRefreshView(): () => Promise<void> {
  return useContext(RefreshView);
}
