"use client";

import { ConsoleFrame, useMe } from "./console-frame";
import { NotFoundBody } from "./not-found-body";

/** An address no page knows: in the console's frame once the reader is known to be signed in. */
export function NotFoundPage() {
  const { data: staff } = useMe();
  if (!staff) {
    return (
      <main className="px-6 py-10">
        <NotFoundBody />
      </main>
    );
  }
  return (
    <ConsoleFrame>
      <NotFoundBody />
    </ConsoleFrame>
  );
}
