CREATE TABLE "api_key_rate_windows" (
	"key_id" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"n" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "api_key_rate_windows_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
ALTER TABLE "api_key_rate_windows" ADD CONSTRAINT "api_key_rate_windows_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_rate_windows_start_idx" ON "api_key_rate_windows" USING btree ("window_start");