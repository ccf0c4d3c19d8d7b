// The browser's client for calls that carry no sign-in: page scripts posting a review or a contact message.
// SPEC §7 posts a review with no auth header, and the islands' client (browser.ts) adds the shopper's token,
// so these go through this instance instead.
import ky from 'ky';
import { apiBaseUrl } from './base-url.ts';
import { catalogue } from './catalogue.ts';
import { feedback } from './feedback.ts';

const anonymousApi = ky.create({ baseUrl: apiBaseUrl(), timeout: 10_000, retry: { limit: 2, methods: ['get'] } });

export const anonymousCatalogue = catalogue(anonymousApi);
export const anonymousFeedback = feedback(anonymousApi);
