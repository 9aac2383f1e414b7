"use client";

import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";

export function SignOutButton({ label }: { label: string }) {
  return (
    <Button
      variant="ghost"
      onClick={async () => {
        // No redirect from next-auth: it would build the URL from NEXTAUTH_URL, which the demo leaves unset.
        await signOut({ redirect: false });
        // A whole new page: nothing the browser read for this session (its query cache) outlives it.
        location.replace("/sign-in");
      }}
    >
      {label}
    </Button>
  );
}
