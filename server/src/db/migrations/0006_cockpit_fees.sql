ALTER TABLE "trades" ADD COLUMN "trade_open_commission" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_close_commission" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_pnl_net" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_roe_net" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_maint_margin_rate" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_maint_amount" numeric;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "trade_liquidation_price" numeric;