DROP INDEX "products_name_trgm";--> statement-breakpoint
CREATE INDEX "products_name_lower_trgm" ON "products" USING gin (lower("name") gin_trgm_ops);