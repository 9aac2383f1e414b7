import type en from "./messages/en.json";

// Message keys are checked at compile time: a missing key in a t() call fails tsc.
declare module "next-intl" {
  interface AppConfig {
    Messages: typeof en;
  }
}
