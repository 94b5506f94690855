CREATE TABLE "relay_signatures" (
	"signature_digest" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
