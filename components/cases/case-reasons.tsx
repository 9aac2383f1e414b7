"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { CaseCannedReasons } from "@/lib/settings/reason-kinds";

const ReasonsContext = createContext<Readonly<Record<string, CaseCannedReasons>>>({});

/**
 * The canned reasons of the products whose cases are shown (settings), for their dialogs. Given by
 * the page once, beside the live data rather than in it: they change when a manager edits settings,
 * not every few seconds.
 */
export function CaseReasonsProvider({ reasons, children }: { reasons: Readonly<Record<string, CaseCannedReasons>>; children: ReactNode }) {
  return <ReasonsContext.Provider value={reasons}>{children}</ReasonsContext.Provider>;
}

/** One product's canned reasons for case actions; none when the page gave none. */
export function useCaseReasons(tenantId: string): CaseCannedReasons {
  return useContext(ReasonsContext)[tenantId] ?? {};
}
