"use client";

import { ErrorState } from "@/components/errors/error-state";

// Any console page that failed, inside the console's frame.
export default function ConsoleError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorState {...props} />;
}
