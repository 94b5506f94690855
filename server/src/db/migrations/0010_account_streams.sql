CREATE TABLE "followed_accounts" (
	"user_uuid" uuid NOT NULL,
	"platform_uuid" uuid NOT NULL,
	"api_key_sealed" text NOT NULL,
	"key_digest" text NOT NULL,
	"follow_when_away" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "followed_accounts_user_uuid_platform_uuid_pk" PRIMARY KEY("user_uuid","platform_uuid")
);
--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "user_stream_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_exits_waiting" jsonb;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_close_cause" text;--> statement-breakpoint
ALTER TABLE "followed_accounts" ADD CONSTRAINT "followed_accounts_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followed_accounts" ADD CONSTRAINT "followed_accounts_platform_uuid_platforms_platform_uuid_fk" FOREIGN KEY ("platform_uuid") REFERENCES "public"."platforms"("platform_uuid") ON DELETE cascade ON UPDATE no action;