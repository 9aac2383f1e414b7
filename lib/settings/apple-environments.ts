// The App Store's environments, as Apple names them in notifications and as a tenant's settings
// hold them. Its own module (no zod, nothing server-side), so the settings form can import it:
// zod builds its parsers with `new Function`, which the console's CSP refuses in the browser.
export const ENVIRONMENTS = ["Production", "Sandbox"] as const;
export type AppleEnvironment = (typeof ENVIRONMENTS)[number];
