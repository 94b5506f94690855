ALTER TABLE "trade_preferences" ADD COLUMN "trade_follow_when_away" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "followed_accounts" DROP COLUMN "follow_when_away";