// Reading a grocer's catalogue CSV: line numbers as a spreadsheet shows them (quoted line breaks, empty lines, a BOM),
// the header, pack sizes written the catalogue's way, and rupees to paise without floating point.
import { describe, expect, it } from 'vitest';
import { canonicalPack, IMPORT_COLUMNS, OPTIONAL_IMPORT_COLUMNS, parseCatalogue } from '../../src/server/services/import-csv.ts';

const HEADER = IMPORT_COLUMNS.join(',');
const anyImage = { imageExists: () => true };

describe('parseCatalogue', () => {
  it('names the line a row starts on, past quoted line breaks, empty lines and a BOM', () => {
    const csv = [
      `\uFEFF${HEADER}`,
      'one,"Name, with comma",B,C,"two',
      'lines",,10,,1,,',
      '',
      'two,Two,B,C,,,10.5.0,,1,,',
    ].join('\r\n');
    const parsed = parseCatalogue(csv, anyImage);
    expect(parsed.errors).toEqual(["line 5: price: '10.5.0' is not an amount in rupees (e.g. 45 or 45.50)"]);
    expect(parsed.rows).toBe(2);
    expect(parsed.products[0]).toMatchObject({ line: 2, handle: 'one', name: 'Name, with comma', description: 'two\nlines' });
  });

  it('turns rupees into paise exactly and reads hot, images and an empty mrp', () => {
    const csv = `${HEADER}\nghee,Ghee,B,C,,1 l,0.29,1.10,3,YES,a.jpg; b.png\n`;
    const { errors, products } = parseCatalogue(csv, anyImage);
    expect(errors).toEqual([]);
    expect(products[0]).toMatchObject({ hot: true, images: ['a.jpg', 'b.png'], packs: [{ name: '1 l', pricePaise: 29, mrpPaise: 110, stock: 3 }] });
    const noMrp = parseCatalogue(`${HEADER}\nsalt,Salt,B,C,,,₹20,,0,,\n`, anyImage);
    expect(noMrp.products[0]!.packs[0]).toEqual({ line: 2, name: '', pricePaise: 2000, mrpPaise: 0, stock: 0 });
  });

  it('writes weights and volumes the catalogue way, and leaves counts as given', () => {
    expect(['1kg', '1000 g', '1 KG', '0.5 l', '500ML', '6 pcs', ' 12  x  200 g '].map(canonicalPack)).toEqual([
      '1 kg',
      '1 kg',
      '1 kg',
      '500 ml',
      '500 ml',
      '6 pcs',
      '12 x 200 g',
    ]);
  });

  it('refuses a header with a missing or unknown column, and an empty file', () => {
    expect(parseCatalogue('handle,name,brand,category,description,pack,prices,mrp,stock,hot,images\n', anyImage).errors).toEqual([
      "line 1: header: the columns must be handle,name,brand,category,description,pack,price,mrp,stock,hot,images, and may add food_type,net_quantity,country_of_origin,manufacturer,shelf_life,fssai_licence (missing price; unknown 'prices')",
    ]);
    expect(parseCatalogue('', anyImage).errors).toEqual(['line 1: the file is empty: it needs a header row and at least one product']);
    expect(parseCatalogue(`${HEADER}\n`, anyImage).errors).toEqual(['line 2: row: the file has a header but no products']);
  });

  it('lists every problem of a row and of a product, in line order', () => {
    const csv = [
      HEADER,
      'dal,Dal,B,C,,1 kg,10,,1,,',
      ',x,y,z,,,1,,1,,',
      'dal,,,,,,12,,2,,',
      'bad,Bad,B,C,,,1,,1,no,../x.jpg;gone.jpg',
      'short,row',
      'unclosed,"Unclosed,B,C,,,1,,1,,',
    ];
    const { errors } = parseCatalogue(csv.slice(0, 6).join('\n'), { imageExists: (name) => name !== 'gone.jpg' });
    expect(errors).toEqual([
      'line 3: handle: is empty: every row needs the handle of its product',
      'line 4: pack: is empty, but dal has several rows: each row is one pack size and needs its pack',
      "line 5: hot: 'no' must be yes or empty",
      "line 5: images: '../x.jpg' must be a file name inside the images folder, without a folder",
      "line 5: images: 'gone.jpg' is not in the images folder",
      'line 6: row: has 2 fields, the header has 11 (a comma inside a value needs the value in "quotes")',
    ]);
    expect(parseCatalogue(csv.join('\n'), anyImage).errors).toEqual(['line 7: a quoted field is never closed (a " is missing)']);
  });

  it('refuses control characters in any cell, named but never printed: NUL, ESC, DEL, C1 and bidirectional controls', () => {
    const csv = [
      HEADER,
      'nul\u0000,Nul,B,C,,,10,,1,,',
      'esc,Esc\u001b]0;owned\u0007 Name,B,C,,,10,,1,,',
      'c1,C1,B,C,Fine\u009b2J flour\u007f,,10,,1,,',
      'bidi,Bidi,B\u202eC,C\u2066,,,10,,1,,photo\u202egpj.exe',
      'ok,Ok,B,C,,,1\u00000,,1,,',
    ].join('\n');
    const { errors, products } = parseCatalogue(csv, anyImage);
    expect(errors).toEqual([
      'line 2: handle: has a control character in it (\\x00): remove it',
      'line 3: name: has control characters in it (\\x1b, \\x07): remove them',
      'line 4: description: has control characters in it (\\x9b, \\x7f): remove them',
      'line 5: brand: has a control character in it (U+202E): remove it',
      'line 5: category: has a control character in it (U+2066): remove it',
      'line 5: images: has a control character in it (U+202E): remove it',
      'line 6: price: has a control character in it (\\x00): remove it',
    ]);
    // The other checks read the cell without them, so no message carries one to the grocer's terminal.
    expect(products[0]!.handle).toBe('nul');
    expect(errors.join('\n')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('keeps tabs and line breaks, which spreadsheets leave in cells: a description keeps its lines', () => {
    const csv = `${HEADER}\r\ntea,"Assam\tTea",B,C,"Strong.\r\n\tBrew 3 minutes.",,10,,1,,\r\n`;
    const { errors, products } = parseCatalogue(csv, anyImage);
    expect(errors).toEqual([]);
    expect(products[0]).toMatchObject({ name: 'Assam Tea', description: 'Strong.\n\tBrew 3 minutes.' });
  });

  it('refuses a header with a control character without printing it', () => {
    expect(parseCatalogue(`${HEADER.replace('name', 'na\u001bme')}\nx,X,B,C,,,1,,1,,\n`, anyImage).errors).toEqual([
      'line 1: header: has a control character in it (\\x1b): remove it',
    ]);
  });
});

describe('the optional columns of food type and product details (issue 24)', () => {
  const FACTS_HEADER = `${HEADER},${OPTIONAL_IMPORT_COLUMNS.join(',')}`;

  it('reads a file without them as before: no facts at all, so an update leaves them as they were', () => {
    const { errors, products } = parseCatalogue(`${HEADER}\nsalt,Salt,B,C,,,20,,5,,\n`, anyImage);
    expect(errors).toEqual([]);
    expect(products[0]!.facts).toEqual({});
  });

  it('reads each fact from the first row of a product, in any column order, and an empty cell as not given', () => {
    const csv = [
      FACTS_HEADER,
      'keema,Chicken Keema,B,Meat,,450g,240,260,4,,,Non-Veg,450g,India,"Coastal Catch Pvt. Ltd., Plot 4, MIDC, Ratnagiri 415639",2 days from packing,1151 9015 000123',
      'eggs,Farm Eggs,B,Dairy,,,60,,9,,,egg,6 pcs,,,,',
      'dal,Dal,B,C,,500 g,50,,1,,,non_veg,,,,,',
      'dal,,,,,1 kg,90,,1,,,veg,1 kg,Nepal,,,',
      'lamp,Ghee Diya,B,Pooja,,,90,,3,,,,,India,,,',
    ].join('\n');
    const { errors, products } = parseCatalogue(csv, anyImage);
    expect(errors).toEqual([]);
    expect(products.map((p) => p.facts)).toEqual([
      {
        foodType: 'non_veg',
        netQuantity: '450 g',
        countryOfOrigin: 'India',
        manufacturer: 'Coastal Catch Pvt. Ltd., Plot 4, MIDC, Ratnagiri 415639',
        shelfLife: '2 days from packing',
        fssaiLicence: '11519015000123',
      },
      { foodType: 'egg', netQuantity: '6 pcs', countryOfOrigin: null, manufacturer: null, shelfLife: null, fssaiLicence: null },
      // The second row of a product is a pack: its cells of the product's own columns are not read.
      { foodType: 'non_veg', netQuantity: null, countryOfOrigin: null, manufacturer: null, shelfLife: null, fssaiLicence: null },
      { foodType: null, netQuantity: null, countryOfOrigin: 'India', manufacturer: null, shelfLife: null, fssaiLicence: null },
    ]);
    // Only the columns the file has: here, the food type alone.
    const some = parseCatalogue(`fssai_licence,${HEADER}\n10019022000456,ghee,Ghee,B,C,,,500,,2,,\n`, anyImage);
    expect(some.errors).toEqual([]);
    expect(some.products[0]!.facts).toEqual({ fssaiLicence: '10019022000456' });
  });

  it('names a food type, a licence or a length it cannot take, and a control character, by line and column', () => {
    const csv = [
      FACTS_HEADER,
      'a,A,B,C,,,10,,1,,,vegan,,,,,',
      'b,B,B,C,,,10,,1,,,veg,,,,,1234 5678',
      `c,C,B,C,,,10,,1,,,,${'1'.repeat(41)},,"${'M'.repeat(301)}",,`,
      'd,D,B,C,,,10,,1,,,,,Ind\u001bia,,,123456789012345',
    ].join('\n');
    expect(parseCatalogue(csv, anyImage).errors).toEqual([
      "line 2: food_type: 'vegan' must be veg, non-veg or egg, or empty when it is not food",
      "line 3: fssai_licence: '1234 5678' must be the 14 digits of an FSSAI licence, or empty",
      'line 4: net_quantity: is 41 characters long; at most 40',
      'line 4: manufacturer: is 301 characters long; at most 300',
      'line 5: country_of_origin: has a control character in it (\\x1b): remove it',
      "line 5: fssai_licence: '123456789012345' must be the 14 digits of an FSSAI licence, or empty",
    ]);
  });

  it('refuses an optional column named twice, like any other', () => {
    expect(parseCatalogue(`${FACTS_HEADER},food_type\n`, anyImage).errors).toEqual([
      'line 1: header: the columns must be handle,name,brand,category,description,pack,price,mrp,stock,hot,images, and may add food_type,net_quantity,country_of_origin,manufacturer,shelf_life,fssai_licence (each once)',
    ]);
  });
});
