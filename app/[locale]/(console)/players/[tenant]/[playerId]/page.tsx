import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { PlayerPageLoading, PlayerPageView } from "@/components/players/player-page-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

// One shell for every player, prerendered per locale: proxy.ts rewrites /players/<tenant>/<playerId>
// to /<locale>/players/_/_, and the view takes the player from the browser's address and the page of
// orders from its query string. It reads nothing here: the browser reads the player's read model from
// its JSON route (app/api/console/players/[tenant]/[playerId]), which checks the session, the
// permission and the product, and lays it out (components/players/player-page-view.tsx). Suspense:
// the view reads the query string.
export function generateStaticParams() {
  return [{ tenant: "_", playerId: "_" }];
}
export const dynamicParams = false;

// The shell names no player; the view names the tab after the one it shows (useRecordTitle).
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "player" }))("kicker") };
}

export default async function PlayerPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<PlayerPageLoading />}>
      <PlayerPageView />
    </Suspense>
  );
}
