"use client";

import { useEffect } from "react";

/**
 * A link to a place on a shell's page (/queues#cases, /settings#webhook-<tenant>) lands once the
 * place exists: the browser looks for it when the document loads, before the view has read its
 * model and drawn it. `ready`: the view has drawn its content.
 */
export function useScrollToHash(ready: boolean) {
  useEffect(() => {
    if (ready && window.location.hash) document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView();
  }, [ready]);
}
