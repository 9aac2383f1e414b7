import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";
import { isTyping, SHORTCUT_KEYS, SHORTCUTS, shortcutOf, type KeyPress } from "./shortcuts";

const page = { tagName: "BODY", isContentEditable: false };
const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  defaultPrevented: false,
  target: page,
  ...more,
});

describe("keyboard shortcuts", () => {
  it("answers each shortcut's key on the page, and no other key", () => {
    for (const shortcut of SHORTCUTS) expect(shortcutOf(press(SHORTCUT_KEYS[shortcut]))).toBe(shortcut);
    expect(shortcutOf(press("x"))).toBeNull();
    // Shift+J is "J": a capital is not j.
    expect(shortcutOf(press("J"))).toBeNull();
  });

  it("is never a shortcut while typing in a field, a select or anything editable", () => {
    for (const tagName of ["INPUT", "TEXTAREA", "SELECT", "input"]) {
      expect(isTyping({ tagName, isContentEditable: false })).toBe(true);
      for (const shortcut of SHORTCUTS) expect(shortcutOf(press(SHORTCUT_KEYS[shortcut], { target: { tagName, isContentEditable: false } }))).toBeNull();
    }
    expect(shortcutOf(press("j", { target: { tagName: "DIV", isContentEditable: true } }))).toBeNull();
    expect(shortcutOf(press("j", { target: { tagName: "A", isContentEditable: false } }))).toBe("next");
    expect(shortcutOf(press("j", { target: null }))).toBe("next");
  });

  it("leaves a key with Ctrl, Meta or Alt, in an IME composition, or already handled, to whoever owns it", () => {
    for (const more of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }, { isComposing: true }, { defaultPrevented: true }]) {
      expect(shortcutOf(press("/", more))).toBeNull();
      expect(shortcutOf(press("k", more))).toBeNull();
    }
    // "?" is Shift+/ on most layouts: Shift alone does not hold a key back.
    expect(shortcutOf(press("?"))).toBe("help");
  });

  it("says what every shortcut does in both languages, the Chinese in Chinese", () => {
    for (const shortcut of SHORTCUTS) {
      expect(en.keyboard.keys[shortcut]).toMatch(/^[A-Z]/);
      expect(zh.keyboard.keys[shortcut]).toMatch(/^\p{Script=Han}/u);
    }
    expect(zh.keyboard.title).toMatch(/\p{Script=Han}/u);
  });
});
