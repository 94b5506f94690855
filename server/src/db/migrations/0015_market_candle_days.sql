CREATE TABLE "market_candle_days" (
	"symbol_uuid" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"open" numeric[] NOT NULL,
	"high" numeric[] NOT NULL,
	"low" numeric[] NOT NULL,
	"close" numeric[] NOT NULL,
	CONSTRAINT "market_candle_days_symbol_uuid_day_pk" PRIMARY KEY("symbol_uuid","day")
);
--> statement-breakpoint
ALTER TABLE "market_candle_days" ADD CONSTRAINT "market_candle_days_symbol_uuid_symbols_symbol_uuid_fk" FOREIGN KEY ("symbol_uuid") REFERENCES "public"."symbols"("symbol_uuid") ON DELETE cascade ON UPDATE no action;