CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_word_trgm" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of a name (letters only, four or more): a typo is corrected against them (src/server/services/search.ts).
CREATE FUNCTION "search_words_of_name"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
    SELECT DISTINCT w FROM regexp_split_to_table(lower(NEW."name"), '[^[:alpha:]]+') AS w WHERE length(w) >= 4
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_search_words" AFTER INSERT OR UPDATE OF "name" ON "products" FOR EACH ROW EXECUTE FUNCTION "search_words_of_name"();--> statement-breakpoint
CREATE TRIGGER "brands_search_words" AFTER INSERT OR UPDATE OF "name" ON "brands" FOR EACH ROW EXECUTE FUNCTION "search_words_of_name"();--> statement-breakpoint
CREATE TRIGGER "categories_search_words" AFTER INSERT OR UPDATE OF "name" ON "categories" FOR EACH ROW EXECUTE FUNCTION "search_words_of_name"();--> statement-breakpoint
INSERT INTO "search_words" ("word")
  SELECT DISTINCT w FROM (SELECT "name" FROM "products" UNION SELECT "name" FROM "brands" UNION SELECT "name" FROM "categories") AS names,
    regexp_split_to_table(lower(names."name"), '[^[:alpha:]]+') AS w
  WHERE length(w) >= 4
  ON CONFLICT DO NOTHING;--> statement-breakpoint
ANALYZE "search_words";
