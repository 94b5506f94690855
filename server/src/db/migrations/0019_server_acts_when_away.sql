ALTER TABLE "followed_accounts" ADD COLUMN "unattended_sealed" text;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "trade_server_acts_when_away" integer DEFAULT 0 NOT NULL;