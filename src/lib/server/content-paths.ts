// The content pages editors change (pre-rendered from Markdown).
export const CONTENT_PATHS = ['/about', '/contact', '/privacy-policy', '/terms', '/cancellation-policy', '/refund-policy'] as const;
