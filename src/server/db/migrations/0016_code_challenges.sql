ALTER TABLE "phone_codes" ADD COLUMN "seed" text;--> statement-breakpoint
ALTER TABLE "phone_codes" ADD COLUMN "challenge_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "phone_codes_challenge_idx" ON "phone_codes" USING btree ("challenge_hash");