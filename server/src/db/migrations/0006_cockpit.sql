ALTER TABLE "trade_preferences" ADD COLUMN "trade_max_open_trades" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD COLUMN "trade_daily_loss_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_open_commission" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_close_commission" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_pnl_net" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_roe_net" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_maint_margin_rate" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_maint_amount" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_liquidation_price" numeric;--> statement-breakpoint
CREATE INDEX "trades_user_closed_idx" ON "trades" USING btree ("user_uuid","trade_close_timestamp");