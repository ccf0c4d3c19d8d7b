// A product page's 'Product details' and its JSON-LD (issue 24): the facts as the seller gave them, the chosen pack's
// net quantity and MRP, 'Not given by the seller' for what is missing, and schema.org's words only for what is given.
import { describe, expect, it } from 'vitest';
import type { ProductDto, VariantDto } from '../../src/server/schemas.ts';
import { gramsOf, NOT_GIVEN, packFacts, productFacts, splitManufacturer, startingPack } from '../../src/lib/product-facts.ts';
import { productLd } from '../../src/lib/server/seo.ts';
import { FOOD_TYPE_NAMES, foodMarkOf, readFoodType } from '../../src/lib/food-type.ts';

const site = new URL('https://kirana.example');

function product(over: Partial<ProductDto> = {}): ProductDto {
  return {
    id: 7,
    name: 'Gramin Harvest Toor Dal 1 kg',
    shortName: 'Toor Dal',
    shortCode: 'DAL-0007',
    description: 'Unpolished.',
    price: 160,
    mrp: 180,
    pricePaise: 16_000,
    mrpPaise: 18_000,
    stars: 0,
    reviewCount: 0,
    type: 'normal',
    brandId: 1,
    brandName: 'Gramin Harvest',
    categoryId: 'dals-pulses',
    categoryName: 'Dals & Pulses',
    imageUrl: null,
    productImages: [],
    productVariants: [],
    unitPrice: null,
    hot: false,
    inStock: true,
    foodType: 'veg',
    netQuantity: '1 kg',
    countryOfOrigin: 'India',
    manufacturer: 'Gramin Harvest Pvt. Ltd., Plot 12, MIDC Bhosari, Pune 411026, Maharashtra',
    shelfLife: '9 months from packing',
    fssaiLicence: '11519015000123',
    ...over,
  };
}

const pack = (id: number, name: string, salesPricePaise: number, mrpPaise: number, inStock = true): VariantDto => ({
  id,
  productsId: 7,
  name,
  productVariantPrice: { id: id * 10, productVariantsId: id, salesPrice: salesPricePaise / 100, mrp: mrpPaise / 100, salesPricePaise, mrpPaise },
  unitPrice: null,
  inStock,
  imageUrl: null,
});

const valueOf = (facts: ReturnType<typeof productFacts>) => Object.fromEntries(facts.map((f) => [f.label, f.value ?? NOT_GIVEN]));

describe('productFacts', () => {
  it('lists the Legal Metrology facts of a plain product as given, the MRP in rupees', () => {
    expect(valueOf(productFacts(product()))).toEqual({
      'Net quantity': '1 kg',
      'MRP (incl. of all taxes)': '₹180',
      'Country of origin': 'India',
      'Manufacturer / packer': 'Gramin Harvest Pvt. Ltd., Plot 12, MIDC Bhosari, Pune 411026, Maharashtra',
      'Best before / shelf life': '9 months from packing',
      'FSSAI licence no.': '11519015000123',
    });
  });

  it('says what the seller has not given, never making it up (an MRP of 0 is none)', () => {
    const bare = product({ netQuantity: null, countryOfOrigin: null, manufacturer: null, shelfLife: null, fssaiLicence: null, mrpPaise: 0, mrp: 0 });
    const facts = productFacts(bare);
    expect(facts.map((f) => f.value)).toEqual([null, null, null, null, null, null]);
    expect(Object.values(valueOf(facts))).toEqual(Array(6).fill('Not given by the seller'));
  });

  it("names the pack a page starts at (the first on the shelf) and follows each pack's MRP", () => {
    const packs = product({
      type: 'variant',
      netQuantity: null,
      productVariants: [pack(1, '500 g', 8_900, 9_900, false), pack(2, '1 kg', 16_900, 0), pack(3, '5 kg', 79_900, 89_950)],
    });
    expect(startingPack(packs)?.name).toBe('1 kg');
    expect(valueOf(productFacts(packs))).toMatchObject({ 'Net quantity': '1 kg', 'MRP (incl. of all taxes)': NOT_GIVEN });
    expect(valueOf(productFacts(packs, startingPack({ ...packs, productVariants: packs.productVariants.slice(2) })))).toMatchObject({
      'Net quantity': '5 kg',
      'MRP (incl. of all taxes)': '₹899.50',
    });
    expect(packFacts(packs)).toEqual([
      [1, '500 g', '₹99'],
      [2, '1 kg', null],
      [3, '5 kg', '₹899.50'],
    ]);
    // A pack without a price is not offered, so it has no facts either.
    const unpriced = { ...pack(4, '10 kg', 1, 1), productVariantPrice: null };
    expect(packFacts({ ...packs, productVariants: [...packs.productVariants, unpriced] })).toHaveLength(3);
    expect(packFacts(product())).toEqual([]);
  });
});

describe('productLd', () => {
  it("carries the net weight, origin, maker, vegetarian diet and the MRP as the list price", () => {
    const ld = productLd(product(), site, { count: 0, average: 0 }) as Record<string, unknown>;
    expect(ld).toMatchObject({
      weight: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' },
      countryOfOrigin: { '@type': 'Country', name: 'India' },
      manufacturer: { '@type': 'Organization', name: 'Gramin Harvest Pvt. Ltd.', address: 'Plot 12, MIDC Bhosari, Pune 411026, Maharashtra' },
      suitableForDiet: 'https://schema.org/VegetarianDiet',
      offers: { price: '160.00', priceSpecification: { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: '180.00', priceCurrency: 'INR' } },
    });
    expect(ld).not.toHaveProperty('size');
  });

  it('leaves out what is not given, gives a volume or a count as size, and no diet but vegetarian', () => {
    const bare = productLd(
      product({ foodType: 'non_veg', netQuantity: null, countryOfOrigin: null, manufacturer: null, mrpPaise: 0, mrp: 0 }),
      site,
      { count: 0, average: 0 },
    ) as Record<string, unknown>;
    for (const key of ['weight', 'size', 'countryOfOrigin', 'manufacturer', 'suitableForDiet']) expect(bare, key).not.toHaveProperty(key);
    expect(bare.offers).not.toHaveProperty('priceSpecification');
    expect(productLd(product({ netQuantity: '500 ml', foodType: 'egg' }), site, { count: 0, average: 0 })).toMatchObject({ size: '500 ml' });
    expect(productLd(product({ netQuantity: '2 × 500 g' }), site, { count: 0, average: 0 })).toMatchObject({ size: '2 × 500 g' });
    expect(productLd(product({ netQuantity: '250 g' }), site, { count: 0, average: 0 })).toMatchObject({ weight: { value: 250, unitCode: 'GRM' } });
    expect(productLd(product({ foodType: 'egg' }), site, { count: 0, average: 0 })).not.toHaveProperty('suitableForDiet');
  });

  it('reads a weight only when the net quantity is one, and a maker name before its first comma', () => {
    expect(['500 g', '1.5 kg', ' 200gm ', '1 l', '6 pcs', '2 × 500 g', '500 g + 100 g'].map(gramsOf)).toEqual([500, 1500, 200, null, null, null, null]);
    expect(splitManufacturer('Konkan Orchards')).toEqual({ name: 'Konkan Orchards', address: null });
    expect(splitManufacturer('A Ltd.,  Pune 411026 ')).toEqual({ name: 'A Ltd.', address: 'Pune 411026' });
  });
});

describe("FSSAI's marks", () => {
  it('draws veg as a green circle, non-veg and egg as the brown triangle, each with its own name, and nothing for none', () => {
    expect(foodMarkOf('veg')).toMatchObject({ name: 'Vegetarian', shape: 'circle' });
    expect(foodMarkOf('non_veg')).toMatchObject({ name: 'Non-vegetarian', shape: 'triangle' });
    expect(foodMarkOf('egg')).toMatchObject({ name: 'Contains egg', shape: 'triangle' });
    expect(foodMarkOf('veg')!.colour).not.toBe(foodMarkOf('non_veg')!.colour);
    expect(foodMarkOf(null)).toBeNull();
    expect(new Set(Object.values(FOOD_TYPE_NAMES)).size).toBe(3);
  });

  it("reads a grocer's food type in the ways it is written, and nothing else", () => {
    expect(['veg', 'Veg', 'vegetarian', 'non-veg', 'Non Veg', 'non_veg', 'NONVEG', 'egg', ' Egg '].map(readFoodType)).toEqual([
      'veg',
      'veg',
      'veg',
      'non_veg',
      'non_veg',
      'non_veg',
      'non_veg',
      'egg',
      'egg',
    ]);
    for (const other of ['vegan', 'jain', 'eggs', '', 'v']) expect(readFoodType(other), other).toBeUndefined();
  });
});
