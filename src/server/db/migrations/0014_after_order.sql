CREATE TABLE "order_issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"order_line_id" integer NOT NULL,
	"kind" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"photo_url" text,
	"outcome" text DEFAULT 'open' NOT NULL,
	"settle_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "order_issues_kind_known" CHECK ("order_issues"."kind" in ('missing', 'damaged', 'wrong_item', 'quality')),
	CONSTRAINT "order_issues_outcome_known" CHECK ("order_issues"."outcome" in ('open', 'refunded', 'replaced'))
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_known";--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "address_type" text DEFAULT 'home' NOT NULL;--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_status" text DEFAULT 'on_delivery' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pincode" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_notices" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "order_issues" ADD CONSTRAINT "order_issues_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_issues" ADD CONSTRAINT "order_issues_order_line_id_order_lines_id_fk" FOREIGN KEY ("order_line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_issues_order_idx" ON "order_issues" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_issues_line_key" ON "order_issues" USING btree ("order_line_id");--> statement-breakpoint
CREATE INDEX "orders_payment_due_idx" ON "orders" USING btree ("payment_due_at") WHERE "orders"."payment_status" = 'awaiting';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_coupon_once_per_phone_key" ON "orders" USING btree ("coupon_code","verified_phone") WHERE "orders"."coupon_code" is not null and "orders"."status" <> 'cancelled';--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_type_known" CHECK ("addresses"."address_type" in ('home', 'work', 'other'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_status_known" CHECK ("orders"."payment_status" in ('on_delivery', 'awaiting', 'paid', 'expired'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_known" CHECK ("orders"."payment_method" in ('cash', 'upi', 'upi_now'));