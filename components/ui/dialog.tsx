"use client";

import { useCallback, useEffect, useId, useState, type ReactNode } from "react";

// How many dialogs are open: live views hold their refresh while someone is reading a result.
let openDialogs = 0;
export function anyDialogOpen(): boolean {
  return openDialogs > 0;
}

/**
 * A modal on the native <dialog>: focus is trapped, Escape closes it, the page behind is inert.
 * Mount it to open it; `onClose` runs however it closes. `close` is handed to the children.
 */
export function Dialog({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: (close: () => void) => ReactNode }) {
  const [element, setElement] = useState<HTMLDialogElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    openDialogs++;
    return () => {
      openDialogs--;
    };
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
