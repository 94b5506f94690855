CREATE TABLE "platform_preferences" (
	"user_uuid" uuid NOT NULL,
	"platform_uuid" uuid NOT NULL,
	"trade_margin" double precision NOT NULL,
	"trade_leverage" integer NOT NULL,
	"trade_stop_loss_percent" double precision NOT NULL,
	"trade_take_profit_percent" double precision NOT NULL,
	"trade_treiling_stop_percent" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_preferences_user_uuid_platform_uuid_pk" PRIMARY KEY("user_uuid","platform_uuid")
);
--> statement-breakpoint
CREATE TABLE "platforms" (
	"platform_uuid" uuid PRIMARY KEY NOT NULL,
	"platform_name" text NOT NULL,
	"platform_background" text NOT NULL,
	"level" integer NOT NULL,
	"trade_leverage_max" integer NOT NULL,
	"base_url" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rate_limit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_uuid" uuid NOT NULL,
	"family_uuid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "symbols" (
	"symbol_uuid" uuid PRIMARY KEY NOT NULL,
	"symbol_name" text NOT NULL,
	"symbol_pair" text NOT NULL,
	"symbol_quantity_precision" integer NOT NULL,
	"symbol_price_precision" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_preferences" (
	"user_uuid" uuid PRIMARY KEY NOT NULL,
	"trade_auto_open_delay" integer NOT NULL,
	"trade_auto_close_delay" integer NOT NULL,
	"minimal_accuracy" double precision NOT NULL,
	"trade_in_server_side" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_tokens" (
	"trade_token_uuid" uuid PRIMARY KEY NOT NULL,
	"user_uuid" uuid NOT NULL,
	"platform_uuid" uuid NOT NULL,
	"envelope" text NOT NULL,
	"message" text,
	"level" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"user_uuid" uuid PRIMARY KEY NOT NULL,
	"user_email" text NOT NULL,
	"user_nickname" text NOT NULL,
	"password_hash" text NOT NULL,
	"user_trade_token_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "websocket_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_uuid" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "platform_preferences" ADD CONSTRAINT "platform_preferences_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_preferences" ADD CONSTRAINT "platform_preferences_platform_uuid_platforms_platform_uuid_fk" FOREIGN KEY ("platform_uuid") REFERENCES "public"."platforms"("platform_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_preferences" ADD CONSTRAINT "trade_preferences_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_tokens" ADD CONSTRAINT "trade_tokens_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_tokens" ADD CONSTRAINT "trade_tokens_platform_uuid_platforms_platform_uuid_fk" FOREIGN KEY ("platform_uuid") REFERENCES "public"."platforms"("platform_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websocket_tokens" ADD CONSTRAINT "websocket_tokens_user_uuid_users_user_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("user_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_limit_events_lookup_idx" ON "rate_limit_events" USING btree ("scope","subject","created_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "symbols_symbol_pair_key" ON "symbols" USING btree ("symbol_pair");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_tokens_user_platform_key" ON "trade_tokens" USING btree ("user_uuid","platform_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "users_user_email_key" ON "users" USING btree ("user_email");--> statement-breakpoint
CREATE INDEX "websocket_tokens_expires_idx" ON "websocket_tokens" USING btree ("expires_at");