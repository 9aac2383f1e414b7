"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";

/**
 * The browser tab names the record a shell shows ("Order X · Order Ops") while it is shown. The
 * shell's own title names no record (one shell serves every order, player, review, staff member), and
 * Next writes it after a client-side navigation has rendered: the record's title is put back whenever
 * the head changes, until the page goes.
 */
export function useRecordTitle(name: string) {
  const nav = useTranslations("nav");
  const title = `${name} · ${nav("brand")}`;
  useEffect(() => {
    const before = document.title;
    const keep = () => {
      if (document.title !== title) document.title = title;
    };
    keep();
    const observer = new MutationObserver(keep);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = before;
    };
  }, [title]);
}
