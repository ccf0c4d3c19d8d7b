// Text put inside XML or SVG (the sitemap, the placeholder product images): the five characters XML reserves.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
