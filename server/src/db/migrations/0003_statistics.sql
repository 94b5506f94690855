CREATE TABLE "statistic_trade_days" (
	"statistic_date" date PRIMARY KEY NOT NULL,
	"trade_close_count_buy" integer NOT NULL,
	"trade_close_count_sell" integer NOT NULL,
	"trade_close_roe_buy" numeric NOT NULL,
	"trade_close_roe_sell" numeric NOT NULL,
	"current_price" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistic_trade_points" (
	"statistic_time" timestamp with time zone PRIMARY KEY NOT NULL,
	"trade_open_count_buy" integer NOT NULL,
	"trade_open_count_sell" integer NOT NULL,
	"trade_open_roe_buy" numeric NOT NULL,
	"trade_open_roe_sell" numeric NOT NULL,
	"current_price" numeric NOT NULL
);
