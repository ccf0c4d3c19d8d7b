CREATE TABLE "order_notices" (
	"order_id" integer NOT NULL,
	"event" text NOT NULL,
	"phone" text NOT NULL,
	"texted" boolean NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_notices_order_id_event_pk" PRIMARY KEY("order_id","event")
);
--> statement-breakpoint
ALTER TABLE "order_notices" ADD CONSTRAINT "order_notices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_notices_texted_idx" ON "order_notices" USING btree ("phone","sent_at") WHERE "order_notices"."texted";