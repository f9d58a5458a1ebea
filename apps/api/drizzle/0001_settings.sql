CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"company_id" integer NOT NULL,
	"owner_user_id" integer NOT NULL,
	"secret_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"collector" boolean DEFAULT false NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text DEFAULT 'reset' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_key_activations" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"company_role" text DEFAULT 'COMPANY_VIEWER' NOT NULL,
	"modules" text[] DEFAULT '{}'::text[] NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_until" timestamp with time zone,
	"max_activations" integer DEFAULT 1 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"comment" text,
	"revoked_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "filtrator_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"text" text NOT NULL,
	"author" text,
	"url" text,
	"posted_at" timestamp with time zone NOT NULL,
	"rules" text[] DEFAULT '{}'::text[] NOT NULL,
	"rules_map" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('russian'::regconfig, "text")) STORED,
	"collected_by_user_id" integer,
	"collected_by_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_configs" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"comment" text,
	"api_id_enc" text,
	"api_hash_enc" text,
	"session_enc" text,
	"last_activity_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"title" text,
	"company_id" integer NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_message_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whitelist_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"match_key" text NOT NULL,
	"kind" text DEFAULT 'undefined' NOT NULL,
	"comment" text,
	"expires_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_tokens" ADD CONSTRAINT "password_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_key_activations" ADD CONSTRAINT "product_key_activations_key_id_product_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."product_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_key_activations" ADD CONSTRAINT "product_key_activations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_keys" ADD CONSTRAINT "product_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_keys" ADD CONSTRAINT "product_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD CONSTRAINT "filtrator_messages_channel_id_telegram_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."telegram_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD CONSTRAINT "filtrator_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD CONSTRAINT "filtrator_messages_collected_by_user_id_users_id_fk" FOREIGN KEY ("collected_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_configs" ADD CONSTRAINT "system_configs_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_accounts" ADD CONSTRAINT "telegram_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_channels" ADD CONSTRAINT "telegram_channels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_channels" ADD CONSTRAINT "telegram_channels_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whitelist_items" ADD CONSTRAINT "whitelist_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whitelist_items" ADD CONSTRAINT "whitelist_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_uq" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_company_idx" ON "api_keys" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "api_keys_owner_idx" ON "api_keys" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "auth_failures_lookup_idx" ON "auth_failures" USING btree ("scope","subject","at");--> statement-breakpoint
CREATE UNIQUE INDEX "password_tokens_hash_uq" ON "password_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_tokens_user_idx" ON "password_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "pka_key_idx" ON "product_key_activations" USING btree ("key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pka_user_key_uq" ON "product_key_activations" USING btree ("user_id","key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_keys_hash_uq" ON "product_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "product_keys_company_idx" ON "product_keys" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "product_keys_created_by_idx" ON "product_keys" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "filtrator_messages_channel_msg_uq" ON "filtrator_messages" USING btree ("channel_id","message_id");--> statement-breakpoint
CREATE INDEX "filtrator_messages_company_posted_idx" ON "filtrator_messages" USING btree ("company_id","posted_at");--> statement-breakpoint
CREATE INDEX "filtrator_messages_posted_idx" ON "filtrator_messages" USING btree ("posted_at");--> statement-breakpoint
CREATE INDEX "filtrator_messages_search_idx" ON "filtrator_messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX "filtrator_messages_rules_idx" ON "filtrator_messages" USING gin ("rules");--> statement-breakpoint
CREATE INDEX "filtrator_messages_collected_by_idx" ON "filtrator_messages" USING btree ("collected_by_user_id");--> statement-breakpoint
CREATE INDEX "system_configs_updated_by_idx" ON "system_configs" USING btree ("updated_by");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_accounts_phone_uq" ON "telegram_accounts" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "telegram_accounts_created_by_idx" ON "telegram_accounts" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_channels_username_uq" ON "telegram_channels" USING btree ("username");--> statement-breakpoint
CREATE INDEX "telegram_channels_company_idx" ON "telegram_channels" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "telegram_channels_created_by_idx" ON "telegram_channels" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "whitelist_items_uq" ON "whitelist_items" USING btree (coalesce("company_id", 0),"type","match_key");--> statement-breakpoint
CREATE INDEX "whitelist_items_company_idx" ON "whitelist_items" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "whitelist_items_match_idx" ON "whitelist_items" USING btree ("type","match_key");--> statement-breakpoint
CREATE INDEX "whitelist_items_created_by_idx" ON "whitelist_items" USING btree ("created_by");