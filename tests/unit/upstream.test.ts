import { describe, expect, it } from 'vitest';
import { upstreamUrl } from '../../src/server/api-pass-through.ts';

const api = 'http://api.internal:4322/api';

describe('upstreamUrl', () => {
  it('maps an /api path and its query onto the API host', () => {
    expect(upstreamUrl(api, 'app/Products/SearchResults/basmati rice', '?pageNo=1')?.href).toBe(
      'http://api.internal:4322/api/app/Products/SearchResults/basmati%20rice?pageNo=1',
    );
  });

  it.each([
    ['//169.254.169.254/latest/meta-data', 'http://api.internal:4322/api/169.254.169.254/latest/meta-data'],
    ['http:%2F%2Fevil.example/x', 'http://api.internal:4322/api/http%3A%2F%2Fevil.example/x'],
  ])('keeps %s on the API host', (path, expected) => {
    expect(upstreamUrl(api, path, '')?.href).toBe(expected);
  });

  it.each(['../admin', 'app/%2E%2E/%2E%2E/secret', 'app/%E0%A4'])('refuses %s', (path) => {
    expect(upstreamUrl(api, path, '')).toBeNull();
  });
});
