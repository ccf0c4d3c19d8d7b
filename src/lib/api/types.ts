// The API's shapes, for pages and islands (types only: nothing from the server is bundled).
export type {
  BrandDto as Brand,
  CategoryDto as Category,
  ContactMessageReceiptDto as ContactMessageReceipt,
  ListingFacetsDto as ListingFacets,
  NewContactMessageInput as NewContactMessage,
  NewReview,
  ProductDto as Product,
  ProductSeoDto as ProductSeo,
  ReviewDto as Review,
  SearchHelpDto as SearchHelp,
  SuggestionDto as Suggestion,
  VariantDto as ProductVariant,
} from '../../server/schemas.ts';
