DROP INDEX "order_notices_texted_idx";--> statement-breakpoint
ALTER TABLE "order_notices" ALTER COLUMN "phone" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_notices" ALTER COLUMN "texted" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "order_notices" ALTER COLUMN "sent_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "order_notices" ALTER COLUMN "sent_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "recorded_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "text_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_notices" ADD COLUMN "mail_sent_at" timestamp with time zone;--> statement-breakpoint
-- Rows from before the outbox were claimed and sent at sent_at (hand-added: the hour's texts still count them).
UPDATE "order_notices" SET "recorded_at" = "sent_at", "claimed_at" = "sent_at", "attempts" = 1, "mail_sent_at" = "sent_at", "text_sent_at" = CASE WHEN "texted" THEN "sent_at" END;--> statement-breakpoint
CREATE INDEX "order_notices_pending_idx" ON "order_notices" USING btree ("recorded_at") WHERE "order_notices"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "order_notices_texted_idx" ON "order_notices" USING btree ("phone","claimed_at") WHERE "order_notices"."texted";