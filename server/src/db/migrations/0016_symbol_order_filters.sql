ALTER TABLE "symbols" ADD COLUMN "symbol_min_quantity" numeric;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "symbol_max_quantity" numeric;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "symbol_min_notional" numeric;