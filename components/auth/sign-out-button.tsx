"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";

export function SignOutButton({ label }: { label: string }) {
  const router = useRouter();
  return (
    <Button
      variant="ghost"
      onClick={async () => {
        // No redirect from next-auth: it would build the URL from NEXTAUTH_URL, which the demo leaves unset.
        await signOut({ redirect: false });
        router.replace("/sign-in");
        router.refresh();
      }}
    >
      {label}
    </Button>
  );
}
