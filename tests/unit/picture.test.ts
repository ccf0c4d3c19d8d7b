import { describe, expect, it } from 'vitest';
import { pictureAttributes, pictureProps, shareableImageUrl, sizedImageUrl } from '../../src/lib/picture.ts';
import { DEFAULT_PRODUCT_IMAGE } from '../../src/lib/urls.ts';

const SHA = 'ab'.repeat(32);
const ORIGINAL = `/api/images/files/${SHA}.jpg`;
const at = (width: number) => `/api/images/${width}/${SHA}.jpg`;

describe('pictureAttributes', () => {
  it('a product card: widths up to twice the card, the 1x width as src, and the sizes of the grid', () => {
    expect(pictureAttributes(ORIGINAL, 'card')).toEqual({
      src: at(320),
      srcset: `${at(160)} 160w, ${at(320)} 320w, ${at(480)} 480w`,
      sizes: '(min-width: 720px) 240px, 50vw',
    });
  });

  it('the product page picture goes up to the largest width; a thumbnail needs only the smallest', () => {
    expect(pictureAttributes(ORIGINAL, 'gallery').srcset?.split(', ').at(-1)).toBe(`${at(960)} 960w`);
    expect(pictureAttributes(ORIGINAL, 'thumbnail')).toEqual({ src: at(160), srcset: `${at(160)} 160w`, sizes: '72px' });
  });

  it('keeps the origin of an API elsewhere', () => {
    const remote = `https://api.example.in${ORIGINAL}`;
    expect(pictureAttributes(remote, 'line').src).toBe(`https://api.example.in${at(160)}`);
  });

  it('leaves pictures the API does not size as they are, with no srcset', () => {
    for (const url of ['/api/images/products/12-1.svg', DEFAULT_PRODUCT_IMAGE, '/api/images/files/not-a-sha.jpg', `/api/images/files/${SHA}.gif`]) {
      expect(pictureAttributes(url, 'card')).toEqual({ src: url });
      expect(sizedImageUrl(url, 320)).toBeUndefined();
      expect(shareableImageUrl(url)).toBe(url);
    }
  });

  it('React names for the islands, and the largest size for crawlers', () => {
    const props = pictureProps(ORIGINAL, 'line');
    expect(props).toEqual({ src: at(160), srcSet: `${at(160)} 160w`, sizes: '80px' });
    expect(shareableImageUrl(ORIGINAL)).toBe(at(960));
  });
});
