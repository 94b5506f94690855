ALTER TABLE "trade_preferences" ADD COLUMN "trade_max_open_trades" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "trade_daily_loss_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "trades_user_closed_idx" ON "trades" USING btree ("user_uuid","trade_close_timestamp");