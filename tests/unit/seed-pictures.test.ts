// Issue 24: every demo product's picture shows its food. Over the seed's plan and its drawing rules: no product falls
// back to the default grocery bag, a drawing that belongs to one food is used only by products of that food (moong dal
// is not drawn as kidney beans, nor paneer as a Swiss-cheese wedge), dals come out in their own colours, and every
// pack of a product sold in pack sizes has its own picture.
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import * as data from '../../src/server/seed/data.ts';
import { planCatalogue } from '../../src/server/seed/index.ts';
import { drawFood } from '../../src/server/seed/pictures/draw.ts';
import { FOOD_DRAWINGS, foodDrawing } from '../../src/server/seed/pictures/foods.ts';
import { drawCataloguePictures } from '../../src/server/seed/pictures/index.ts';
import { foodIconOf } from '../../src/server/seed/pictures/kinds.ts';

/**
 * Drawings that show one food, and the words a base product's name needs to be shown by it. Every drawing of ours is
 * here; so are the icons of the set that were on the wrong food before (beans on moong dal, the cheese wedge on
 * paneer, the dango skewer on ladoos, the pea pod on bhindi, the butter block on ghee).
 */
const ONE_FOOD: Record<string, RegExp> = {
  // Icons of the set.
  beans: /rajma/,
  'cheese-wedge': /cheese/,
  dango: /dango/,
  'pea-pod': /\bpeas\b/,
  butter: /butter/,
  egg: /\beggs?\b/,
  'ginger-root': /ginger/,
  'green-apple': /green apple/,
  'red-apple': /apple/,
  // Ours: dals and pulses.
  'toor-dal': /toor|arhar/,
  'moong-dal': /moong dal$/,
  'green-moong': /green moong/,
  'chana-dal': /chana dal/,
  'masoor-dal': /\bmasoor\b/,
  'urad-dal': /urad/,
  'kabuli-chana': /kabuli/,
  'kala-chana': /kala chana/,
  lobia: /lobia/,
  // Flours and powders.
  atta: /\batta\b/,
  'multigrain-atta': /multigrain atta/,
  besan: /besan(?! ladoo)/,
  maida: /maida/,
  sooji: /sooji|rava|upma/,
  'ragi-flour': /ragi flour/,
  'jowar-flour': /jowar/,
  'bajra-flour': /bajra/,
  'rice-flour': /rice flour/,
  'turmeric-powder': /turmeric/,
  'chilli-powder': /chilli powder/,
  'coriander-powder': /coriander powder/,
  'garam-masala': /garam masala/,
  'kitchen-king-masala': /kitchen king/,
  'chhole-masala': /chhole/,
  'sambar-masala': /sambar/,
  'pav-bhaji-masala': /pav bhaji/,
  hing: /hing/,
  'jaggery-powder': /jaggery powder/,
  'haldi-doodh': /haldi doodh/,
  churna: /churna/,
  sugar: /^sugar$/,
  mishri: /mishri/,
  'khandsari-sugar': /khandsari/,
  // Dairy.
  paneer: /paneer/,
  curd: /dahi|curd/,
  'ghee-jar': /ghee/,
  mayonnaise: /mayonnaise/,
  // Vegetables and fruit.
  okra: /bhindi|okra/,
  'green-chilli': /green chilli/,
  cauliflower: /cauliflower/,
  amla: /amla/,
  // Bakery and breakfast.
  pav: /\bpav\b/,
  'burger-buns': /burger buns/,
  rusk: /rusk/,
  khari: /khari/,
  idli: /idli/,
  nankhatai: /nankhatai/,
  crackers: /crackers/,
  dosa: /dosa/,
  dhokla: /dhokla/,
  // Rice and grains.
  poha: /poha/,
  sabudana: /sabudana/,
  dalia: /dalia/,
  'foxtail-millet': /millet/,
  'brown-rice': /brown basmati/,
  'basmati-rice': /^basmati/,
  // Spices and seeds.
  jeera: /jeera|cumin/,
  'black-pepper': /black pepper/,
  cardamom: /cardamom/,
  'mustard-seeds': /mustard/,
  'sesame-seeds': /sesame|gingelly/,
  'soya-beans': /soya/,
  'flax-seeds': /flax/,
  saffron: /saffron/,
  // Dry fruits and nuts.
  almonds: /almond/,
  cashews: /cashew/,
  raisins: /raisin|kishmish/,
  walnuts: /walnut/,
  pistachios: /pistachio/,
  dates: /dates/,
  makhana: /makhana/,
  figs: /fig|anjeer/,
  tamarind: /imli|tamarind/,
  // Namkeen.
  sev: /bhujia|\bsev\b/,
  'ratlami-sev': /ratlami sev/,
  'namkeen-mix': /mixture/,
  'khatta-meetha-mix': /khatta meetha/,
  'moong-namkeen': /moong dal namkeen/,
  'banana-chips': /banana chips/,
  'potato-chips': /potato chips/,
  bhakarwadi: /bhakarwadi/,
  khakhra: /khakhra/,
  mathri: /mathri/,
  // Mithai.
  ladoo: /ladoo/,
  rasgulla: /rasgulla/,
  'gulab-jamun': /gulab jamun/,
  'kaju-katli': /kaju katli/,
  'mysore-pak': /mysore pak/,
  'soan-papdi': /soan papdi/,
  jaggery: /jaggery|\bgur\b/,
};

const baseProducts = data.categories.flatMap((c) => c.products.map(([name]) => ({ categoryId: c.id, name })));
const iconOf = (name: string) => {
  const base = baseProducts.find((b) => b.name === name);
  if (!base) throw new Error(`No base product ${name}`);
  return foodIconOf(base.categoryId, base.name);
};

describe('what each demo product is drawn as', () => {
  it('draws the foods of the issue as themselves', () => {
    expect(iconOf('Moong Dal')).toBe('moong-dal');
    expect(iconOf('Masoor Dal')).toBe('masoor-dal');
    expect(iconOf('Besan')).toBe('besan');
    expect(iconOf('Paneer')).toBe('paneer');
    expect(iconOf('Malai Paneer')).toBe('paneer');
    expect(iconOf('Besan Ladoo')).toBe('ladoo');
    expect(iconOf('Bhindi (Lady Finger)')).toBe('okra');
    expect(iconOf('Cow Ghee')).toBe('ghee-jar');
    expect(iconOf('Desi Ghee')).toBe('ghee-jar');
    expect(iconOf('Rajma (Chitra)')).toBe('beans');
    expect(iconOf('Navratan Mixture')).toBe('namkeen-mix');
    // Eggless mayonnaise is not drawn as an egg, nor the chicken kabab as a vegetarian patty.
    expect(iconOf('Eggless Mayonnaise')).toBe('mayonnaise');
    expect(iconOf('Chicken Seekh Kabab')).toBe('poultry-leg');
  });

  it('uses a drawing that belongs to one food only for products of that food', () => {
    const wrong = baseProducts
      .map((b) => ({ ...b, icon: foodIconOf(b.categoryId, b.name) }))
      .filter(({ name, icon }) => ONE_FOOD[icon] && !ONE_FOOD[icon].test(name.toLowerCase()))
      .map(({ name, icon }) => `${name}: ${icon}`);
    expect(wrong).toEqual([]);
  });

  it('draws no product as the generic shopping bag', () => {
    const bagged = baseProducts.filter((b) => foodIconOf(b.categoryId, b.name) === 'shopping-bags').map((b) => b.name);
    expect(bagged).toEqual([]);
  });

  it('knows every drawing of ours in the table above, each unlike the others and apart from the icon set', () => {
    const fluent = createRequire(import.meta.url)('@iconify-json/fluent-emoji-flat/icons.json') as { icons: Record<string, unknown> };
    for (const name of FOOD_DRAWINGS) {
      expect(ONE_FOOD[name], name).toBeDefined();
      expect(name in fluent.icons, name).toBe(false);
    }
    const bodies = FOOD_DRAWINGS.map((name) => foodDrawing(name));
    expect(new Set(bodies).size).toBe(FOOD_DRAWINGS.length);
    // Each is used by some product: no drawing is dead weight.
    const used = new Set(baseProducts.map((b) => foodIconOf(b.categoryId, b.name)));
    expect(FOOD_DRAWINGS.filter((name) => !used.has(name))).toEqual([]);
  });
});

/** The mean colour of the middle of a food picture (where a heap of grains or a mound of flour is), as hue and lightness. */
async function middleColour(icon: string): Promise<{ hue: number; lightness: number; saturation: number }> {
  const { data: pixels, info } = await sharp(Buffer.from(drawFood(icon, '#B0500F')))
    .extract({ left: 260, top: 250, width: 120, height: 60 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  for (let i = 0; i < pixels.length; i++) sums[i % 3]! += pixels[i]!;
  const [r, g, b] = sums.map((sum) => sum / (info.width * info.height) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const d = max - min;
  const saturation = d === 0 ? 0 : d / (1 - Math.abs(2 * lightness - 1));
  let hue = 0;
  if (d > 0) {
    if (max === r) hue = 60 * (((g - b) / d) % 6);
    else if (max === g) hue = 60 * ((b - r) / d + 2);
    else hue = 60 * ((r - g) / d + 4);
  }
  return { hue: (hue + 360) % 360, lightness, saturation };
}

describe('the colours of the dals and flours', () => {
  it('draws moong dal and toor dal yellow, masoor orange-red, green moong green, urad white, besan yellow, ragi brown', async () => {
    const yellow = (c: { hue: number; saturation: number }) => c.hue >= 38 && c.hue <= 60 && c.saturation > 0.45;
    expect(yellow(await middleColour('moong-dal'))).toBe(true);
    expect(yellow(await middleColour('toor-dal'))).toBe(true);
    expect(yellow(await middleColour('besan'))).toBe(true);
    const masoor = await middleColour('masoor-dal');
    expect(masoor.hue).toBeLessThan(25);
    expect(masoor.saturation).toBeGreaterThan(0.5);
    const green = await middleColour('green-moong');
    expect(green.hue).toBeGreaterThan(70);
    expect(green.hue).toBeLessThan(140);
    expect((await middleColour('urad-dal')).lightness).toBeGreaterThan(0.7);
    expect((await middleColour('maida')).lightness).toBeGreaterThan(0.9);
    const ragi = await middleColour('ragi-flour');
    expect(ragi.lightness).toBeLessThan(0.55);
    expect(ragi.hue).toBeLessThan(30);
  });
});

describe('the pictures of the demo catalogue', () => {
  const plan = planCatalogue(400);
  const pictures = drawCataloguePictures(plan);

  it('gives every product at least one picture of its own (none shows the default grocery bag)', () => {
    const bare = plan.products.filter((_, i) => (pictures.products[i] ?? []).length === 0).map((p) => p.name);
    expect(bare).toEqual([]);
  });

  it('gives every pack of a product sold in pack sizes its own picture, with its size on it, the first being the front', () => {
    const packed = plan.products.filter((p) => p.variants.length > 0);
    expect(packed.length).toBeGreaterThan(50);
    plan.products.forEach((p, i) => {
      const packs = pictures.packs[i] ?? [];
      expect(packs, p.name).toHaveLength(p.variants.length);
      if (p.variants.length === 0) return;
      expect(new Set(packs).size, p.name).toBe(p.variants.length);
      expect(packs[0], p.name).toBe(pictures.products[i]?.[0]);
      p.variants.forEach((v, k) => expect(pictures.svgs[packs[k]!], `${p.name} ${v.name}`).toContain(`>${v.name}<`));
    });
  });

  it('draws a larger pack larger than a smaller one of the same product', () => {
    const i = plan.products.findIndex((p) => p.variants.length >= 2);
    const packs = pictures.packs[i]!;
    // The pack drawn smaller sits in a scaled group right after the background; the largest is not scaled.
    const scaleOf = (svg: string) => Number(/^<svg[^>]*><rect[^>]*\/><g transform="translate\([^)]*\) scale\(([\d.]+)\)">/.exec(svg)?.[1] ?? 1);
    expect(scaleOf(pictures.svgs[packs[0]!]!)).toBeLessThan(scaleOf(pictures.svgs[packs.at(-1)!]!));
  });

  it('is the same every time (the seed is deterministic)', () => {
    expect(drawCataloguePictures(planCatalogue(400))).toEqual(pictures);
  });
});
