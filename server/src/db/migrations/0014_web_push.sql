CREATE TABLE "push_subscriptions" (
	"endpoint" text PRIMARY KEY NOT NULL,
	"user_uuid" uuid NOT NULL,
	"family_uuid" uuid,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "push_signals" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "push_trade_opened" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "push_trade_closed" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "push_unprotected" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "push_refusals" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_user" ON "push_subscriptions" USING btree ("user_uuid");