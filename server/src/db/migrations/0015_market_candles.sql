CREATE TABLE "market_candles" (
	"symbol_uuid" uuid NOT NULL,
	"open_time" timestamp with time zone NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close" numeric NOT NULL,
	CONSTRAINT "market_candles_symbol_uuid_open_time_pk" PRIMARY KEY("symbol_uuid","open_time")
);
--> statement-breakpoint
ALTER TABLE "market_candles" ADD CONSTRAINT "market_candles_symbol_uuid_symbols_symbol_uuid_fk" FOREIGN KEY ("symbol_uuid") REFERENCES "public"."symbols"("symbol_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_candles_time_idx" ON "market_candles" USING btree ("open_time");