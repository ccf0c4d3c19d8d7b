// Shoppers' feedback, typed: a product review and a contact message. Pages send them through the server client
// (for a form posted without JavaScript), page scripts through the anonymous browser client.
import type { KyInstance, Options } from 'ky';
import type { ContactMessageReceipt, NewContactMessage, NewReview, Review } from './types.ts';

export function feedback(api: KyInstance) {
  return {
    postReview: (review: NewReview, options: Options = {}) => api.post('Reviews', { ...options, json: review }).json<Review>(),
    sendContactMessage: (message: NewContactMessage, options: Options = {}) =>
      api.post('app/ContactMessages', { ...options, json: message }).json<ContactMessageReceipt>(),
  };
}
