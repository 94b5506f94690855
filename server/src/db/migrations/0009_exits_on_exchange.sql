ALTER TABLE "trade_preferences" ADD COLUMN "trade_exits_on_exchange" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_exits" jsonb;