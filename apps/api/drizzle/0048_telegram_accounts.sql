ALTER TABLE "telegram_accounts" ADD COLUMN "flood_wait_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "telegram_sources" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "telegram_sources" ADD CONSTRAINT "telegram_sources_account_id_telegram_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."telegram_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_sources_account_idx" ON "telegram_sources" USING btree ("account_id");