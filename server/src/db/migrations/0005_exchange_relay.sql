CREATE TABLE "relay_api_keys" (
	"key_digest" text PRIMARY KEY NOT NULL,
	"user_uuid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "allows_browser" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "relay_api_keys" ADD CONSTRAINT "relay_api_keys_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;