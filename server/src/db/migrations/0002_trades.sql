CREATE TABLE "trades" (
	"trade_uuid" uuid PRIMARY KEY NOT NULL,
	"user_uuid" uuid NOT NULL,
	"platform_uuid" uuid NOT NULL,
	"signal_uuid" uuid NOT NULL,
	"symbol_uuid" uuid NOT NULL,
	"trade_direction" text NOT NULL,
	"trade_in_server_side" integer NOT NULL,
	"trade_phase" text DEFAULT 'ready' NOT NULL,
	"trade_open_price" numeric,
	"trade_quantity" numeric,
	"trade_margin" numeric NOT NULL,
	"trade_leverage" integer NOT NULL,
	"trade_stop_loss_percent" double precision NOT NULL,
	"trade_take_profit_percent" double precision NOT NULL,
	"trade_treiling_stop_percent" double precision NOT NULL,
	"trade_stop_price" numeric,
	"trade_order_id" text,
	"trade_stop_order_id" text,
	"trade_error" text,
	"trade_status" text DEFAULT 'open' NOT NULL,
	"trade_ui_status" text,
	"trade_current_price" numeric,
	"trade_last_update_price" integer DEFAULT 0 NOT NULL,
	"trade_pnl_current" numeric DEFAULT '0' NOT NULL,
	"trade_roe_current" numeric DEFAULT '0' NOT NULL,
	"trade_treiling_stop_percent_current" numeric NOT NULL,
	"trade_best_roe" numeric,
	"monitor_conditions" integer DEFAULT 0 NOT NULL,
	"trade_close_price" numeric,
	"trade_create_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"trade_update_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"trade_close_timestamp" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_platform_uuid_platforms_platform_uuid_fk" FOREIGN KEY ("platform_uuid") REFERENCES "public"."platforms"("platform_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_symbol_uuid_symbols_symbol_uuid_fk" FOREIGN KEY ("symbol_uuid") REFERENCES "public"."symbols"("symbol_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trades_user_signal_key" ON "trades" USING btree ("user_uuid","signal_uuid");--> statement-breakpoint
CREATE INDEX "trades_user_created_idx" ON "trades" USING btree ("user_uuid","trade_create_timestamp");--> statement-breakpoint
CREATE INDEX "trades_open_idx" ON "trades" USING btree ("trade_status") WHERE "trades"."trade_status" = 'open';