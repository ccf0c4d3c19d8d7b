CREATE TABLE "issue_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"thumbnail" "bytea",
	"byte_size" integer NOT NULL,
	"stripped" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_issues" ADD COLUMN "photo_id" integer;--> statement-breakpoint
ALTER TABLE "issue_photos" ADD CONSTRAINT "issue_photos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_photos_user_created_idx" ON "issue_photos" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "order_issues" ADD CONSTRAINT "order_issues_photo_id_issue_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."issue_photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_issues_photo_idx" ON "order_issues" USING btree ("photo_id");--> statement-breakpoint
-- Issue 32: the photos already reported leave the public image_files, as they were sent (stripped = false: the
-- photo sweep re-makes each without its metadata before it is served), each under its report's id so that the
-- report keeps it. A picture that is also a product's stays in image_files.
INSERT INTO "issue_photos" ("id", "user_id", "bytes", "byte_size", "stripped", "created_at")
SELECT oi."id", o."user_id", f."bytes", octet_length(f."bytes"), false, oi."created_at"
FROM "order_issues" oi
JOIN "orders" o ON o."id" = oi."order_id"
JOIN "image_files" f ON f."sha256" = split_part(split_part(oi."photo_url", '/', 5), '.', 1)
WHERE oi."photo_url" IS NOT NULL;--> statement-breakpoint
UPDATE "order_issues" SET "photo_id" = "id" WHERE "id" IN (SELECT "id" FROM "issue_photos");--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('issue_photos', 'id'), (SELECT coalesce(max("id"), 0) + 1 FROM "issue_photos"), false);--> statement-breakpoint
DELETE FROM "image_files" f
WHERE EXISTS (SELECT 1 FROM "order_issues" oi WHERE split_part(split_part(oi."photo_url", '/', 5), '.', 1) = f."sha256")
  AND NOT EXISTS (SELECT 1 FROM "product_images" WHERE "image_url" LIKE '%' || f."sha256" || '%')
  AND NOT EXISTS (SELECT 1 FROM "product_variants" WHERE "image_url" LIKE '%' || f."sha256" || '%')
  AND NOT EXISTS (SELECT 1 FROM "categories" WHERE "image_url" LIKE '%' || f."sha256" || '%')
  AND NOT EXISTS (SELECT 1 FROM "order_lines" WHERE "image_url" LIKE '%' || f."sha256" || '%');--> statement-breakpoint
ALTER TABLE "order_issues" DROP COLUMN "photo_url";