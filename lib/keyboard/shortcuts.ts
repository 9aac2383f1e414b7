// The console's single-key shortcuts as data, and the one rule for when a key press is one. Pure (no
// DOM types at run time), so the rule is tested without a browser; components/ui/keyboard.tsx is the
// layer that listens.

/** What a key does; its words are messages' `keyboard.keys.<shortcut>`. */
export type Shortcut = "search" | "next" | "previous" | "open" | "event" | "note" | "help";

/** The key each shortcut answers to (KeyboardEvent.key). */
export const SHORTCUT_KEYS: Readonly<Record<Shortcut, string>> = {
  search: "/",
  next: "j",
  previous: "k",
  open: "Enter",
  event: "e",
  note: "n",
  help: "?",
};

/** The overlay's order: the page's own keys, then the lists', then the console's. */
export const SHORTCUTS: readonly Shortcut[] = ["event", "note", "next", "previous", "open", "search", "help"];

/** The keys every list answers to (useListKeys), listed when the page has a list. */
export const LIST_SHORTCUTS: ReadonlySet<Shortcut> = new Set(["next", "previous", "open"]);

/** What the rule reads of the focused element (an HTMLElement in the browser). */
interface Target {
  readonly tagName?: unknown;
  readonly isContentEditable?: unknown;
}

const FIELDS = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** Whether a key press is someone typing (a field, a select, anything editable): then it is a character. */
export function isTyping(target: unknown): boolean {
  if (typeof target !== "object" || target === null) return false;
  const { tagName, isContentEditable } = target as Target;
  return isContentEditable === true || (typeof tagName === "string" && FIELDS.has(tagName.toUpperCase()));
}

export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly isComposing: boolean;
  readonly defaultPrevented: boolean;
  readonly target: unknown;
}

/**
 * The shortcut a key press asks for, or null: never while typing, with Ctrl, Meta or Alt held (the
 * browser's and the screen reader's own keys), during an IME composition (a Chinese input method
 * sends letters while composing), or when something already handled the press. Shift is allowed: "?"
 * needs it.
 */
export function shortcutOf(press: KeyPress): Shortcut | null {
  if (press.ctrlKey || press.metaKey || press.altKey || press.isComposing || press.defaultPrevented || isTyping(press.target)) return null;
  return SHORTCUTS.find((shortcut) => SHORTCUT_KEYS[shortcut] === press.key) ?? null;
}
