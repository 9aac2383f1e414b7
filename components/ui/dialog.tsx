"use client";

import { useCallback, useEffect, useId, useState, useSyncExternalStore, type ReactNode } from "react";

// How many dialogs are open, as a tiny store live views subscribe to: while someone is reading or
// filling a dialog, nothing refreshes the data under it (a row that vanished took its dialog with it,
// and a refreshed row changed what the dialog said), and the view catches up once the last one closes.
let openDialogs = 0;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function countOpen(delta: 1 | -1): void {
  openDialogs += delta;
  for (const listener of listeners) listener();
}

export function anyDialogOpen(): boolean {
  return openDialogs > 0;
}

/** Whether any dialog is open now; re-renders when that changes. Live views pause their refresh on it. */
export function useAnyDialogOpen(): boolean {
  return useSyncExternalStore(subscribe, anyDialogOpen, () => false);
}

/**
 * What a live view shows: the latest data, except while a dialog is open — then the data as it was
 * when the first dialog opened, so the rows (and the dialogs opened from them) stay as the person
 * read them. The latest data shows as soon as the last dialog closes.
 */
export function useHeldWhileDialogOpen<T>(latest: T): T {
  const reading = useAnyDialogOpen();
  const [held, setHeld] = useState(latest);
  // Adjusting state to a prop during render (no effect, no extra paint): remember what is shown.
  if (!reading && held !== latest) setHeld(latest);
  return reading ? held : latest;
}

/**
 * A modal on the native <dialog>: focus is trapped, Escape closes it, the page behind is inert.
 * Mount it to open it; `onClose` runs however it closes. `close` is handed to the children.
 * While it is open, live views hold still (useAnyDialogOpen, useHeldWhileDialogOpen).
 */
export function Dialog({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: (close: () => void) => ReactNode }) {
  const [element, setElement] = useState<HTMLDialogElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    countOpen(1);
    return () => countOpen(-1);
  }, []);
  // Stable, so React attaches it once rather than on every render.
  const attach = useCallback((el: HTMLDialogElement | null) => {
    if (el && !el.open) el.showModal();
    setElement(el);
  }, []);
  return (
    <dialog
      ref={attach}
      onClose={onClose}
      aria-labelledby={titleId}
      className="m-auto w-full max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {children(() => element?.close())}
      </div>
    </dialog>
  );
}

export const TEXTAREA =
  "w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-slate-900 focus:outline-none focus:ring-1 focus:ring-slate-900";
