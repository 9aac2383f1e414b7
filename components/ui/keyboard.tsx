"use client";

import { useTranslations } from "next-intl";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode, type RefCallback } from "react";
import { LIST_SHORTCUTS, SHORTCUT_KEYS, SHORTCUTS, shortcutOf, type Shortcut } from "@/lib/keyboard/shortcuts";
import { Button } from "./button";
import { anyDialogOpen, Dialog } from "./dialog";

/**
 * The console's one keyboard layer: every single-key shortcut is declared here by what it does, read
 * by one listener on the document, and listed by the `?` overlay from what the page has registered.
 * A key is never a shortcut while someone is typing (an input, a textarea, a select, anything
 * editable), with Ctrl, Meta or Alt held, during an IME composition (lib/keyboard/shortcuts.ts), or
 * under an open dialog (its keys are its own).
 */

interface Layer {
  /** Adds a handler for a shortcut; the latest one registered answers. Returns its removal. */
  readonly register: (shortcut: Shortcut, run: () => void) => () => void;
  /** Adds a list (its <tbody>) to what j/k walk. Returns its removal. */
  readonly addList: (body: HTMLTableSectionElement) => () => void;
  /** Opens the `?` overlay with the keys the page has now. */
  readonly showHelp: () => void;
}

// Outside the console's frame (sign-in) there is no layer, and a component that asks registers nothing.
const KeyboardLayer = createContext<Layer>({ register: () => () => {}, addList: () => () => {}, showHelp: () => {} });

/**
 * A key for this page while the component is mounted (and `enabled`): `run` is read when the key is
 * pressed, so it may close over the latest state without registering again.
 */
export function useShortcut(shortcut: Shortcut, run: () => void, enabled = true): void {
  const { register } = useContext(KeyboardLayer);
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  });
  useEffect(() => (enabled ? register(shortcut, () => latest.current()) : undefined), [register, shortcut, enabled]);
}

/**
 * Makes a table's rows a list the keyboard works: j and k move the selection (the row is marked
 * aria-current, its first link takes the focus, so a screen reader reads it and the page scrolls to
 * it), Enter opens it. One call per list: `const keys = useListKeys()`, then `<tbody ref={keys}>`.
 */
export function useListKeys(): RefCallback<HTMLTableSectionElement> {
  const { addList } = useContext(KeyboardLayer);
  return useCallback((body: HTMLTableSectionElement | null) => (body ? addList(body) : undefined), [addList]);
}

/** The rows j and k walk: every registered list's shown rows, in the page's order. */
function listRows(lists: ReadonlySet<HTMLTableSectionElement>): HTMLTableRowElement[] {
  return [...lists]
    .filter((body) => body.isConnected)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
    .flatMap((body) => [...body.rows])
    .filter((row) => row.getClientRects().length > 0);
}

/** Where a row opens: its first link (the order, the review), or nothing. */
function rowLink(row: HTMLTableRowElement): HTMLAnchorElement | null {
  return row.querySelector<HTMLAnchorElement>("a[href]");
}

function select(rows: readonly HTMLTableRowElement[], next: HTMLTableRowElement): void {
  for (const row of rows) if (row !== next) row.removeAttribute("aria-current");
  next.setAttribute("aria-current", "true");
  const link = rowLink(next);
  if (link) {
    link.focus();
  } else {
    next.tabIndex = -1;
    next.focus();
  }
  next.scrollIntoView({ block: "nearest" });
}

/** The frame's keyboard layer (components/navigation/console-frame.tsx) and its `?` overlay. */
export function KeyboardProvider({ children }: { children: ReactNode }) {
  const handlers = useRef(new Map<Shortcut, (() => void)[]>());
  const lists = useRef(new Set<HTMLTableSectionElement>());
  // What the overlay lists, taken when it opens: the keys the page has now.
  const [help, setHelp] = useState<readonly Shortcut[] | null>(null);

  const showHelp = useCallback(
    () => setHelp(SHORTCUTS.filter((s) => s === "help" || (LIST_SHORTCUTS.has(s) ? listRows(lists.current).length > 0 : (handlers.current.get(s)?.length ?? 0) > 0))),
    [],
  );
  const layer = useMemo<Layer>(
    () => ({
      register: (shortcut, run) => {
        const stack = handlers.current.get(shortcut) ?? [];
        handlers.current.set(shortcut, [...stack, run]);
        return () => handlers.current.set(shortcut, (handlers.current.get(shortcut) ?? []).filter((r) => r !== run));
      },
      addList: (body) => {
        lists.current.add(body);
        return () => void lists.current.delete(body);
      },
      showHelp,
    }),
    [showHelp],
  );

  useEffect(() => {
    const move = (step: 1 | -1): boolean => {
      const rows = listRows(lists.current);
      if (rows.length === 0) return false;
      const focused = document.activeElement;
      let at = rows.findIndex((row) => focused instanceof Node && row.contains(focused));
      if (at < 0) at = rows.findIndex((row) => row.getAttribute("aria-current") === "true");
      const next = at < 0 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
      select(rows, rows[next]!);
      return true;
    };
    // Enter on a focused link or button is the browser's; the layer opens the selected row only when
    // nothing that acts on Enter has the focus (the row itself, or the page).
    const open = (target: EventTarget | null): boolean => {
      const row = listRows(lists.current).find((r) => r.getAttribute("aria-current") === "true");
      if (!row || !(target === document.body || target === row || (target instanceof HTMLElement && target.tagName === "MAIN"))) return false;
      const link = rowLink(row);
      link?.click();
      return link !== null;
    };
    const onKey = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event);
      if (shortcut === null || anyDialogOpen()) return;
      let done: boolean;
      switch (shortcut) {
        case "next":
          done = move(1);
          break;
        case "previous":
          done = move(-1);
          break;
        case "open":
          done = open(event.target);
          break;
        case "help":
          showHelp();
          done = true;
          break;
        default: {
          const run = handlers.current.get(shortcut)?.at(-1);
          run?.();
          done = run !== undefined;
        }
      }
      if (done) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [showHelp]);

  return (
    <KeyboardLayer.Provider value={layer}>
      {children}
      {help ? <KeysOverlay shortcuts={help} onClose={() => setHelp(null)} /> : null}
    </KeyboardLayer.Provider>
  );
}

/** The header's way to the `?` overlay, for whoever does not know the key yet. */
export function KeysButton() {
  const t = useTranslations("keyboard");
  const { showHelp } = useContext(KeyboardLayer);
  return (
    <button
      type="button"
      onClick={showHelp}
      aria-keyshortcuts="?"
      title={t("title")}
      className="rounded border border-slate-300 px-1.5 font-mono text-xs leading-5 text-slate-700 hover:bg-slate-100"
      data-testid="keys-button"
    >
      <span aria-hidden="true">?</span>
      <span className="sr-only">{t("title")}</span>
    </button>
  );
}

/** The `?` overlay: the keys this page answers to, each with what it does. */
function KeysOverlay({ shortcuts, onClose }: { shortcuts: readonly Shortcut[]; onClose: () => void }) {
  const t = useTranslations("keyboard");
  return (
    <Dialog title={t("title")} onClose={onClose}>
      {(close) => (
        <div className="space-y-4" data-testid="keys-overlay">
          <p className="text-sm text-slate-600">{t("intro")}</p>
          <dl className="space-y-2 text-sm">
            {shortcuts.map((shortcut) => (
              <div key={shortcut} className="flex items-baseline gap-3" data-shortcut={shortcut}>
                <dt className="w-16 shrink-0">
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800">{SHORTCUT_KEYS[shortcut]}</kbd>
                </dt>
                <dd className="text-slate-800">{t(`keys.${shortcut}`)}</dd>
              </div>
            ))}
          </dl>
          <div className="flex justify-end">
            <Button variant="secondary" onClick={close}>
              {t("close")}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
