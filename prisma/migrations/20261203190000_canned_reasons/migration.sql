-- Canned reasons (issue 14, item 5): per product, the reasons its staff pick from when they trigger
-- an order event from the console, keyed by event: {"close": ["…", …], "request-refund": […]}.
-- A suggestion only: the person may still type their own reason, and every reason, picked or typed,
-- passes the same rule (lib/orders/console-event.ts). Edited in settings, audited like every setting.
ALTER TABLE "tenant_settings" ADD COLUMN "canned_reasons" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_canned_reasons_check" CHECK (jsonb_typeof("canned_reasons") = 'object');
