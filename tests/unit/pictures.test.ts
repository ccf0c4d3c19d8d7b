import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import * as data from '../../src/server/seed/data.ts';
import { brandsFor, planCatalogue } from '../../src/server/seed/index.ts';
import { brandColours, drawBack, drawCategoryTile, drawFood, drawFront, PICTURE_SIZE } from '../../src/server/seed/pictures/draw.ts';
import { hasIcon } from '../../src/server/seed/pictures/icons.ts';
import { drawCataloguePictures } from '../../src/server/seed/pictures/index.ts';
import { foodIconOf, packKindOf, type PackKind } from '../../src/server/seed/pictures/kinds.ts';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** The picture rasterized the way the image pipeline does it (sharp with librsvg and the server's fonts). */
async function pixels(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).resize(320, 320).raw().toBuffer();
}

const KINDS: PackKind[] = ['bag', 'bottle', 'jar', 'box', 'tin', 'packet', 'tray', 'loose'];

describe('what the pictures show', () => {
  it('finds an icon in Fluent Emoji Flat or a drawing of ours for every base product, and every kind of pack in use', () => {
    const kinds = new Set<PackKind>();
    for (const c of data.categories) {
      const icons = new Set<string>();
      for (const [name] of c.products) {
        const icon = foodIconOf(c.id, name);
        expect(hasIcon(icon), `${name}: ${icon}`).toBe(true);
        icons.add(icon);
        kinds.add(packKindOf(c.id, name));
      }
      // A category's products do not all look alike.
      if (c.products.length >= 8) expect(icons.size, c.id).toBeGreaterThanOrEqual(2);
    }
    expect([...kinds].sort()).toEqual([...KINDS].sort());
  });

  it('sells produce loose, oil in bottles, atta in bags, pickles in jars', () => {
    expect(packKindOf('fruits-vegetables', 'Tomato')).toBe('loose');
    expect(foodIconOf('fruits-vegetables', 'Tomato')).toBe('tomato');
    expect(packKindOf('edible-oils', 'Groundnut Oil')).toBe('bottle');
    expect(packKindOf('atta-flours', 'Chakki Atta')).toBe('bag');
    expect(packKindOf('pickles-chutneys', 'Mango Pickle')).toBe('jar');
    expect(foodIconOf('pickles-chutneys', 'Mango Pickle')).toBe('mango');
    expect(packKindOf('kitchen-essentials', 'Aluminium Foil 9 m')).toBe('box');
  });

  it('gives every brand colours in which its name and pack size are readable', () => {
    for (const { name } of brandsFor(50_000)) {
      const c = brandColours(name);
      expect(contrast(c.main, c.light), `${name} ${c.main} on ${c.light}`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(c.dark, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
      expect(contrast(c.main, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
    }
    expect(brandColours('Gramin Harvest')).toEqual(brandColours('Gramin Harvest'));
    expect(brandColours('Gramin Harvest').main).not.toBe(brandColours('Kaveri Fields').main);
  });
});

describe('drawn pictures', () => {
  it('are square SVGs sharp reads, for every kind of pack, the back, the food and a category', async () => {
    const svgs = [
      ...KINDS.map((kind) => drawFront({ brand: 'Sheru & Co.', name: 'Dog <Biscuits>', pack: '500 g', icon: 'bone', kind })),
      drawBack({ categoryId: 'dals-pulses', name: 'Toor Dal', unit: 'g', icon: 'beans', colour: '#B0500F' }),
      drawBack({ categoryId: 'household-cleaning', name: 'Phenyl', unit: 'ml', icon: 'droplet', colour: '#01579B' }),
      drawFood('beans', '#B0500F'),
      drawCategoryTile(['tomato', 'onion', 'potato'], '#2E7D32'),
    ];
    for (const svg of svgs) {
      const meta = await sharp(Buffer.from(svg)).metadata();
      expect(meta.format).toBe('svg');
      expect([meta.width, meta.height]).toEqual([PICTURE_SIZE, PICTURE_SIZE]);
    }
    expect(svgs[0]).toContain('Sheru &amp; Co.');
    expect(svgs[0]).toContain('&lt;Biscuits&gt;');
  });

  it('print their words when rasterized on the server (the pack size changes the pixels)', async () => {
    for (const kind of KINDS) {
      const art = { brand: 'Gramin Harvest', name: 'Chakki Atta', icon: 'sheaf-of-rice', kind };
      const five = await pixels(drawFront({ ...art, pack: '5 kg' }));
      const one = await pixels(drawFront({ ...art, pack: '1 kg' }));
      expect(five.equals(one), kind).toBe(false);
    }
    const back = (name: string) => drawBack({ categoryId: 'dals-pulses', name, unit: 'g', icon: 'beans', colour: '#B0500F' });
    expect((await pixels(back('Toor Dal'))).equals(await pixels(back('Moong Dal')))).toBe(false);
  });
});

describe('the catalogue pictures', () => {
  it('are the same for the same plan, differ within a gallery, and are shared where products look alike', () => {
    const plan = planCatalogue(400);
    const a = drawCataloguePictures(plan);
    expect(drawCataloguePictures(plan)).toEqual(a);
    expect(a.products).toHaveLength(400);
    expect(a.categories).toHaveLength(30);
    expect(new Set(a.categories).size).toBe(30);
    let shown = 0;
    // Each pack size after the first shows a picture of its own besides the gallery (issue 24).
    let ownPackPictures = 0;
    plan.products.forEach((p, i) => {
      const gallery = a.products[i] ?? [];
      expect(gallery).toHaveLength(p.imageCount);
      expect(new Set(gallery).size).toBe(gallery.length);
      shown += gallery.length;
      ownPackPictures += Math.max(0, (a.packs[i] ?? []).length - 1);
      const front = a.svgs[gallery[0] ?? -1];
      if (front) {
        expect(front).toContain(p.brandName.replace(/&/g, '&amp;').split(' ')[0]);
        const pack = p.variants[0]?.name;
        if (pack) expect(front).toContain(`>${pack}<`);
      }
    });
    // The food and the back of a product are shared by every brand's pack of it: one picture per brand's pack.
    const packs = new Set(plan.products.filter((p) => p.imageCount > 0).map((p) => `${p.brandName}|${p.shortName}`));
    expect(a.svgs.length).toBeLessThan(shown + ownPackPictures);
    expect(a.svgs.length).toBeLessThan(packs.size + ownPackPictures + 300);
    expect(new Set(a.svgs).size).toBe(a.svgs.length);
  });
});
