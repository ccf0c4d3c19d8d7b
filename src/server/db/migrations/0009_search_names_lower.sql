DROP INDEX "brands_name_trgm";--> statement-breakpoint
DROP INDEX "categories_name_trgm";--> statement-breakpoint
CREATE INDEX "brands_name_lower_trgm" ON "brands" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "categories_name_lower_trgm" ON "categories" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
ANALYZE "brands";--> statement-breakpoint
ANALYZE "categories";
