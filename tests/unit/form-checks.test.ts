// The browser's checks of the review and contact forms refuse exactly what the API's schemas refuse, so a shopper
// never sends what will bounce, nor is stopped from sending what the API would take.
import { describe, expect, it } from 'vitest';
import { contactProblem } from '../../src/lib/contact-form.ts';
import { reviewProblem } from '../../src/lib/review-form.ts';
import { NewContactMessageSchema, NewReviewSchema } from '../../src/server/schemas.ts';

const review = { title: 'Meera', description: 'Fresh and well packed.', stars: 5, productsId: 1 };
const contact = { name: 'Anita Rao', email: 'anita@example.in', phone: '', message: 'My order arrived without the curd.' };

describe('control characters', () => {
  it.each([
    ['a plain review', {}, true],
    ['a comment of several lines and a tab', { description: 'Fresh.\r\nWell packed.\n\tWill buy again.' }, true],
    ['a terminal escape in the comment', { description: 'Good \u0001\u001b[31mstuff' }, false],
    ['DEL in the comment', { description: 'Good stuff\u007f' }, false],
    ['NUL in the comment', { description: 'Good\u0000stuff' }, false],
    ['an escape in the name', { title: 'Me\u001bera' }, false],
    ['a line break in the name', { title: 'Me\nera' }, false],
  ])('review: %s is accepted by both or refused by both', (_, change, accepted) => {
    const input = { ...review, ...change };
    expect(reviewProblem(input) === null).toBe(accepted);
    expect(NewReviewSchema.safeParse(input).success).toBe(accepted);
  });

  it.each([
    ['a plain message', {}, true],
    ['a message of several lines', { message: 'My order arrived\r\nwithout the curd.\n\tPlease help.' }, true],
    ['a terminal escape in the message', { message: 'My order \u001b[31marrived without the curd.' }, false],
    ['DEL in the message', { message: 'My order arrived without the curd.\u007f' }, false],
    ['a control character in the name', { name: 'Anita\u0007 Rao' }, false],
  ])('contact: %s is accepted by both or refused by both', (_, change, accepted) => {
    const input = { ...contact, ...change };
    expect(contactProblem(input) === null).toBe(accepted);
    expect(NewContactMessageSchema.safeParse(input).success).toBe(accepted);
  });

  it('says what to fix', () => {
    expect(reviewProblem({ ...review, description: 'Good \u001b[31mstuff' })).toBe('Please remove the control characters from your comment.');
    expect(contactProblem({ ...contact, name: 'Anita\u0007 Rao' })).toBe('Please remove the control characters from your name.');
  });
});
