// The API's shapes, for pages and islands (types only: nothing from the server is bundled).
export type {
  BrandDto as Brand,
  CategoryDto as Category,
  ContactMessageReceiptDto as ContactMessageReceipt,
  NewContactMessageInput as NewContactMessage,
  NewReview,
  ProductDto as Product,
  ProductSeoDto as ProductSeo,
  ReviewDto as Review,
  SuggestionDto as Suggestion,
  VariantDto as ProductVariant,
} from '../../server/schemas.ts';
