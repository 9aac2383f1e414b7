// Static imports of images (the favicon in app/[locale]/layout.tsx) are typed by Next's own
// declarations; next-env.d.ts, which would bring them, is made by a build and not committed.
/// <reference types="next/image-types/global" />
import type en from "./messages/en.json";

// Message keys are checked at compile time: a missing key in a t() call fails tsc.
declare module "next-intl" {
  interface AppConfig {
    Messages: typeof en;
  }
}
