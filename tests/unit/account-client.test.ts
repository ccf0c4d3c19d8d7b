// The browser's account helpers: where sign-in may send the shopper back to (no open redirect), the form checks
// that put a message next to the field at fault, and the one reader of the API's error body.
import { HTTPError } from 'ky';
import { describe, expect, it } from 'vitest';
import { fieldProblem } from '../../src/lib/account-form.ts';
import { apiErrorMessage } from '../../src/lib/api/errors.ts';
import { safeNextPath, urls } from '../../src/lib/urls.ts';

describe('safeNextPath', () => {
  it.each([
    ['/cart', '/cart'],
    ['/product-detail?id=3', '/product-detail?id=3'],
    ['/myaccount#password', '/myaccount#password'],
    ['/search?name=dal#x', '/search?name=dal#x'],
    ['/search?name=a%2F%2Fb', '/search?name=a%2F%2Fb'],
    ['/product-detail?id=3#add-to-wishlist-3', '/product-detail?id=3#add-to-wishlist-3'],
    // Normalised the way a browser would go there anyway.
    ['/./cart', '/cart'],
    ['/shop/../cart', '/cart'],
    ['/login-help', '/login-help'],
  ])('keeps a path on this site: %s', (next, expected) => expect(safeNextPath(next)).toBe(expected));

  // Each of these, handed to location.assign() as it was or as the URL parser normalises it, leaves the site.
  it.each([
    '/.//evil.example/phish',
    '/../..//evil.example',
    '/./\\evil.example',
    '/.\\/evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%5C%5Cevil.example',
    '/./%2F/evil.example',
    '///evil.example',
    'https:/evil.example',
    'JavaScript:alert(1)',
    ' //evil.example',
    '/login/',
  ])('sends %j home instead', (next) => expect(safeNextPath(next)).toBe('/'));

  it.each([
    null,
    '',
    'https://evil.example/',
    '//evil.example/cart',
    '/\\evil.example',
    'javascript:alert(1)',
    'cart',
    '/login?next=/cart',
    '/register',
  ])('sends %s home instead', (next) => expect(safeNextPath(next)).toBe('/'));

  it('builds the sign-in link with the page to come back to', () => {
    expect(urls.login('/product-detail?id=3')).toBe('/login?next=%2Fproduct-detail%3Fid%3D3');
    expect(urls.login('//evil.example')).toBe('/login');
  });
});

describe('fieldProblem', () => {
  const field = { value: '', required: true, minLength: -1, maxLength: -1, type: 'text', name: 'x', label: 'Full name' };
  it('names the field that is missing', () => expect(fieldProblem(field)).toBe('Full name is required.'));
  it('says how short is too short', () =>
    expect(fieldProblem({ ...field, value: 'A', minLength: 2 })).toBe('Full name must be at least 2 characters.'));
  it('checks an email address', () => expect(fieldProblem({ ...field, type: 'email', value: 'asha@' })).toMatch(/email address/));
  it.each(['98765 43210', '+91 98765-43210', '09876543210'])('takes the mobile number %s', (value) =>
    expect(fieldProblem({ ...field, value, check: 'mobile' })).toBeNull());
  it.each(['12345 67890', '98765'])('refuses the mobile number %s', (value) =>
    expect(fieldProblem({ ...field, value, check: 'mobile' })).toMatch(/10-digit/));
  it('does not trim a password', () => expect(fieldProblem({ ...field, type: 'password', value: '       ', check: 'password' })).toMatch(/8/));
});

describe('apiErrorMessage', () => {
  const failure = (status: number, body: unknown) => {
    const request = new Request('http://shop.test/api/app/Carts', { method: 'POST' });
    const error = new HTTPError(new Response(null, { status }), request, {} as never);
    (error as { data: unknown }).data = body;
    return error;
  };

  it("reads the API's message", () =>
    expect(apiErrorMessage(failure(409, { error: { code: 'conflict', message: 'Tomato is out of stock.' } }), 'x')).toBe(
      'Tomato is out of stock.',
    ));
  it('falls back when the body is not ours (no stack trace or HTML shown)', () =>
    expect(apiErrorMessage(failure(500, '<html>boom</html>'), 'Could not sign you in.')).toBe('Could not sign you in.'));
});
