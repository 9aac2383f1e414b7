-- The webhook deliveries log (issue 27): every request the outbox relay makes for a message, with
-- what it sent and what came back, so "we never got the webhook" has an answer in the console.
-- Written by the relay in the statement that settles the message, fenced by the same lease, so a
-- relay that overran its lease records nothing (the message's new holder records its own attempt).
CREATE TABLE "outbox_attempts" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "message_id" BIGINT NOT NULL,
    "url" TEXT NOT NULL,
    "attempted_at" TIMESTAMPTZ(6) NOT NULL,
    -- The HTTP status, or NULL when no answer came (then `error` says why: refused, timed out, …).
    "status" INTEGER,
    "error" TEXT,
    "latency_ms" INTEGER NOT NULL,
    -- The first 1 KB (bytes, cut on a character boundary) of the answer's body.
    "response_body" TEXT NOT NULL DEFAULT '',
    -- The headers sent, the signature among them; never the signing secret (it is not a header).
    "request_headers" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "outbox_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "outbox_attempts_body_size" CHECK (octet_length("response_body") <= 1024)
);

-- One message's attempts, in order (the deliveries page), and an endpoint's recent attempts (health).
CREATE INDEX "outbox_attempts_tenant_id_message_id_id_idx" ON "outbox_attempts"("tenant_id", "message_id", "id");
CREATE INDEX "outbox_attempts_tenant_id_url_attempted_at_idx" ON "outbox_attempts"("tenant_id", "url", "attempted_at");

-- What happened stays what happened: the log is append-only like the other audit logs.
CREATE TRIGGER "outbox_attempts_append_only"
    BEFORE UPDATE OR DELETE ON "outbox_attempts"
    FOR EACH ROW EXECUTE FUNCTION "refuse_audit_rewrite"();
CREATE TRIGGER "outbox_attempts_no_truncate"
    BEFORE TRUNCATE ON "outbox_attempts"
    FOR EACH STATEMENT EXECUTE FUNCTION "refuse_audit_rewrite"();

-- A person's resend of a delivered or dead message (issue 27): the message is made pending again,
-- and this row is the request key that makes a double click — or the same click arriving at two web
-- processes — one resend. The audit fact carries who and why.
CREATE TABLE "outbox_resends" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "message_id" BIGINT NOT NULL,
    "request_key" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    CONSTRAINT "outbox_resends_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_resends_tenant_id_request_key_key" ON "outbox_resends"("tenant_id", "request_key");
CREATE INDEX "outbox_resends_tenant_id_message_id_id_idx" ON "outbox_resends"("tenant_id", "message_id", "id");

-- The deliveries page: every message of a tenant newest first, and by status or topic, as keyset
-- pages on (created_at, id) — an index probe per page at 1,000,000 messages.
CREATE INDEX "outbox_messages_tenant_id_created_at_id_idx" ON "outbox_messages"("tenant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "outbox_messages_tenant_id_status_created_at_id_idx" ON "outbox_messages"("tenant_id", "status", "created_at" DESC, "id" DESC);
CREATE INDEX "outbox_messages_tenant_id_topic_created_at_id_idx" ON "outbox_messages"("tenant_id", "topic", "created_at" DESC, "id" DESC);
