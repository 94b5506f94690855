CREATE TABLE "exchange_pauses" (
	"exchange_origin" text PRIMARY KEY NOT NULL,
	"paused_until" timestamp with time zone NOT NULL,
	"status" integer NOT NULL
);
