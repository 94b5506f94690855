CREATE TABLE "neurons" (
	"neuron_uuid" uuid PRIMARY KEY NOT NULL,
	"neuron_tag_name" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signals" (
	"signal_uuid" uuid PRIMARY KEY NOT NULL,
	"platform_uuid" uuid NOT NULL,
	"symbol_uuid" uuid NOT NULL,
	"neuron_uuid" uuid NOT NULL,
	"direction" text NOT NULL,
	"price_enter" numeric NOT NULL,
	"accuracy" double precision,
	"trend_moment" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"outcome" text,
	"price_exit" numeric
);
--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_platform_uuid_platforms_platform_uuid_fk" FOREIGN KEY ("platform_uuid") REFERENCES "public"."platforms"("platform_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_symbol_uuid_symbols_symbol_uuid_fk" FOREIGN KEY ("symbol_uuid") REFERENCES "public"."symbols"("symbol_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_neuron_uuid_neurons_neuron_uuid_fk" FOREIGN KEY ("neuron_uuid") REFERENCES "public"."neurons"("neuron_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signals_track_idx" ON "signals" USING btree ("neuron_uuid","symbol_uuid","platform_uuid","created_at");--> statement-breakpoint
CREATE INDEX "signals_created_idx" ON "signals" USING btree ("created_at");