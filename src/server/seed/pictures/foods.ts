// Drawings of the Indian foods Fluent Emoji Flat has no picture of: dals in their own colours, flours and masalas in a
// bowl, paneer cubes, a jar of ghee, okra, ladoos, namkeen and mithai. Each is an icon body in a 128-unit square, so it
// goes wherever an icon of the set goes (icons.ts). Grains are scattered by a generator seeded with the drawing's name:
// the same drawing always has the same bytes.

export const DRAWING_SIZE = 128;

type Rng = () => number;

/** mulberry32 seeded with FNV-1a of the name. */
function rngOf(name: string): Rng {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole units or one decimal: small, stable text. */
const n = (v: number) => String(Math.round(v * 10) / 10);

interface Bowl {
  outside: string;
  inside: string;
  rim: string;
}

const STEEL: Bowl = { outside: '#8e9aa3', inside: '#5f6b73', rim: '#c9d2d8' };
const CLAY: Bowl = { outside: '#a94f2b', inside: '#6e321b', rim: '#cf7a4f' };
const BRASS: Bowl = { outside: '#b8862b', inside: '#7a5614', rim: '#e0b54f' };

const bowlBack = (b: Bowl, inside = b.inside) => `<ellipse cx="64" cy="80" rx="56" ry="13" fill="${inside}"/>`;
const bowlFront = (b: Bowl) =>
  `<path d="M8 80A56 13 0 0 0 120 80Q117 121 64 121Q11 121 8 80Z" fill="${b.outside}"/>` +
  `<path d="M8 80A56 13 0 0 0 120 80" fill="none" stroke="${b.rim}" stroke-width="3"/>`;

/** The shape of one grain, drawn at the origin `s` units across. */
type GrainShape =
  | 'lentil' // split dal, masoor, moong: a flat round
  | 'round' // whole moong, mustard, pepper, boondi
  | 'rice' // a long grain
  | 'chickpea' // kabuli and kala chana: round with a beak
  | 'eyed' // lobia: cream with a black eye
  | 'seed' // cumin, sesame, flax, cardamom, almond: a pointed oval
  | 'cashew'
  | 'pearl' // sabudana, makhana: round and shiny
  | 'flake' // poha, cornflakes
  | 'strand' // sev and bhujia
  | 'thread' // saffron
  | 'disc' // chips, khakhra, mathri
  | 'spiral' // bhakarwadi
  | 'wrinkled' // raisins, dates
  | 'walnut'
  | 'pistachio';

interface Grain {
  shape: GrainShape;
  /** Fill colours, one picked per grain for a natural look. */
  colours: string[];
  /** Edge or detail colour. */
  detail: string;
  size: number;
  /** Share of the heap's grains (relative to the other kinds in a mix). */
  share?: number;
}

/** Whole units: a grain's place needs no finer step, and each character counts a hundred times over. */
const w = (v: number) => String(Math.round(v));

/**
 * One grain at (x, y), `s` units across, turned by `angle`. Its fill and edge come from the group it is drawn in (one
 * group per colour: the attributes are written once, not once a grain); details carry their own colours.
 */
function grainElement(g: Grain, x: number, y: number, angle: number, s: number): string {
  const at = `transform="translate(${w(x)} ${w(y)}) rotate(${Math.round(angle)})"`;
  const d = g.detail;
  switch (g.shape) {
    case 'lentil':
      return `<ellipse cx="${w(x)}" cy="${w(y)}" rx="${n(s)}" ry="${n(s * 0.82)}"/>`;
    case 'round':
      return `<circle cx="${w(x)}" cy="${w(y)}" r="${n(s)}"/>`;
    case 'rice':
      return `<ellipse rx="${n(s * 1.7)}" ry="${n(s * 0.5)}" ${at}/>`;
    case 'chickpea':
      return `<circle cx="${w(x)}" cy="${w(y)}" r="${n(s)}"/><circle cx="${n(x + s * 0.55)}" cy="${n(y - s * 0.55)}" r="${n(s * 0.3)}" fill="${d}"/>`;
    case 'eyed':
      return `<g ${at}><ellipse rx="${n(s * 1.25)}" ry="${n(s * 0.85)}"/><ellipse cx="${n(s * 0.15)}" cy="${n(-s * 0.45)}" rx="${n(s * 0.45)}" ry="${n(s * 0.28)}" fill="#1d1a17"/></g>`;
    case 'seed':
      return `<ellipse rx="${n(s * 0.42)}" ry="${n(s)}" ${at}/>`;
    case 'cashew':
      return `<path d="M${n(-s)} ${n(-s * 0.2)}A${n(s)} ${n(s)} 0 0 0 ${n(s)} ${n(-s * 0.2)}Q${n(s * 0.75)} ${n(-s * 0.75)} ${n(s * 0.4)} ${n(-s * 0.3)}A${n(s * 0.45)} ${n(s * 0.45)} 0 0 1 ${n(-s * 0.4)} ${n(-s * 0.3)}Q${n(-s * 0.75)} ${n(-s * 0.75)} ${n(-s)} ${n(-s * 0.2)}Z" ${at}/>`;
    case 'pearl':
      return `<circle cx="${w(x)}" cy="${w(y)}" r="${n(s)}"/><circle cx="${n(x - s * 0.35)}" cy="${n(y - s * 0.35)}" r="${n(s * 0.3)}" fill="#fff" opacity="0.7"/>`;
    case 'flake':
      return `<path d="M${n(-s)} ${n(-s * 0.4)}L${n(s * 0.2)} ${n(-s * 0.9)}L${n(s)} ${n(-s * 0.1)}L${n(s * 0.6)} ${n(s * 0.7)}L${n(-s * 0.6)} ${n(s * 0.8)}Z" ${at}/>`;
    case 'strand':
      return `<path d="M${n(-s)} 0q${n(s * 0.5)} ${n(-s * 0.7)} ${n(s)} 0t${n(s)} 0" ${at}/>`;
    case 'thread':
      return `<path d="M${n(-s)} 0q${n(s)} ${n(-s * 0.5)} ${n(s * 2)} ${n(s * 0.2)}" ${at}/>`;
    case 'disc':
      return `<ellipse rx="${n(s)}" ry="${n(s * 0.72)}" ${at}/>`;
    case 'spiral':
      return `<g ${at}><circle r="${n(s)}"/><path d="M0 0a${n(s * 0.2)} ${n(s * 0.2)} 0 1 1 ${n(s * 0.4)} 0a${n(s * 0.4)} ${n(s * 0.4)} 0 1 1 ${n(-s * 0.8)} 0a${n(s * 0.6)} ${n(s * 0.6)} 0 1 1 ${n(s * 1.2)} 0" fill="none" stroke-width="${n(s * 0.14)}"/></g>`;
    case 'wrinkled':
      return `<g ${at}><ellipse rx="${n(s * 1.3)}" ry="${n(s * 0.8)}"/><path d="M${n(-s * 0.8)} ${n(-s * 0.1)}q${n(s * 0.8)} ${n(s * 0.5)} ${n(s * 1.6)} 0" fill="none"/></g>`;
    case 'walnut':
      return `<g ${at}><circle r="${n(s)}"/><path d="M0 ${n(-s)}V${n(s)}M${n(-s * 0.6)} ${n(-s * 0.4)}q${n(s * 0.3)} ${n(s * 0.3)} 0 ${n(s * 0.6)}M${n(s * 0.6)} ${n(-s * 0.4)}q${n(-s * 0.3)} ${n(s * 0.3)} 0 ${n(s * 0.6)}" fill="none"/></g>`;
    case 'pistachio':
      return `<g ${at}><ellipse rx="${n(s * 1.2)}" ry="${n(s * 0.8)}"/><ellipse rx="${n(s * 0.8)}" ry="${n(s * 0.28)}" fill="#7fae3e" stroke="none"/></g>`;
  }
}

/** The attributes a group of grains of one colour shares: strands and threads are strokes, the rest filled shapes. */
function grainGroup(g: Grain, colour: string): string {
  if (g.shape === 'strand' || g.shape === 'thread') {
    return `<g fill="none" stroke="${colour}" stroke-width="${n(g.size * (g.shape === 'strand' ? 0.32 : 0.22))}" stroke-linecap="round">`;
  }
  return `<g fill="${colour}" stroke="${g.detail}" stroke-width="${g.shape === 'disc' ? n(g.size * 0.12) : '0.6'}">`;
}

/** A heap of grains in a bowl: dals, rice, seeds, nuts, namkeen. */
function heap(name: string, grains: Grain[], options: { base: string; bowl?: Bowl; count?: number }): string {
  const rng = rngOf(name);
  const bowl = options.bowl ?? STEEL;
  const total = grains.reduce((sum, g) => sum + (g.share ?? 1), 0);
  const count = options.count ?? 60;
  // Grains of one kind and colour are drawn in one group, higher on the heap first within it.
  const groups = new Map<string, { open: string; items: { y: number; svg: string }[] }>();
  for (let i = 0; i < count; i++) {
    // The kind of grain by its share of the mix.
    let pick = rng() * total;
    const g = grains.find((k) => (pick -= k.share ?? 1) < 0) ?? grains[0]!;
    const y = 31 + rng() * 52;
    // The mound's half-width at y (its outline rises steeply from the rim, then rounds over).
    const half = 50 * Math.min(1, (y - 28) / 54) ** 0.4;
    const x = 64 + (rng() * 2 - 1) * half * 0.94;
    const colour = g.colours[Math.floor(rng() * g.colours.length)] ?? g.colours[0]!;
    const key = `${grains.indexOf(g)}|${colour}`;
    let group = groups.get(key);
    if (!group) {
      group = { open: grainGroup(g, colour), items: [] };
      groups.set(key, group);
    }
    group.items.push({ y, svg: grainElement(g, x, y, rng() * 180, g.size * (0.85 + rng() * 0.3)) });
  }
  let grainsSvg = '';
  for (const group of groups.values()) {
    group.items.sort((a, b) => a.y - b.y);
    grainsSvg += `${group.open}${group.items.map((i) => i.svg).join('')}</g>`;
  }
  return (
    bowlBack(bowl) +
    `<path d="M14 82C18 42 44 28 64 28C84 28 110 42 114 82Z" fill="${options.base}"/>` +
    grainsSvg +
    bowlFront(bowl)
  );
}

/** A mound of powder in a bowl: flours and ground spices. */
function powder(name: string, colour: string, options: { shade: string; light: string; specks?: string; bowl?: Bowl }): string {
  const rng = rngOf(name);
  const bowl = options.bowl ?? STEEL;
  let specks = '';
  if (options.specks) {
    for (let i = 0; i < 16; i++) {
      const y = 40 + rng() * 40;
      const half = 44 * Math.sqrt(Math.min(1, (y - 30) / 50));
      specks += `<circle cx="${n(64 + (rng() * 2 - 1) * half)}" cy="${n(y)}" r="${n(0.8 + rng() * 0.9)}" fill="${options.specks}"/>`;
    }
  }
  return (
    bowlBack(bowl) +
    `<path d="M12 84C16 52 40 30 64 30C88 30 112 52 116 84Z" fill="${colour}"/>` +
    `<path d="M64 30C88 30 112 52 116 84L96 84C94 60 82 40 64 30Z" fill="${options.shade}"/>` +
    `<ellipse cx="50" cy="48" rx="13" ry="7" fill="${options.light}" transform="rotate(-30 50 48)"/>` +
    specks +
    bowlFront(bowl)
  );
}

/** Curd set in a clay pot, seen from above its rim: a smooth, glossy white top with a spoon's swirl. */
function curd(): string {
  return (
    `<ellipse cx="64" cy="58" rx="56" ry="24" fill="${CLAY.inside}"/>` +
    `<ellipse cx="64" cy="60" rx="49" ry="19" fill="#fbfaf4"/>` +
    `<path d="M36 60q14-10 28-2t28-4" fill="none" stroke="#e4dece" stroke-width="4" stroke-linecap="round"/>` +
    `<ellipse cx="84" cy="52" rx="10" ry="3.5" fill="#fff"/>` +
    `<path d="M8 58A56 24 0 0 0 120 58Q118 120 64 120Q10 120 8 58Z" fill="${CLAY.outside}"/>` +
    `<path d="M8 58A56 24 0 0 0 120 58" fill="none" stroke="${CLAY.rim}" stroke-width="3"/>`
  );
}

interface CubeColours {
  top: string;
  left: string;
  right: string;
  edge: string;
  /** Dots on the faces: the pores of mysore pak, the flakes of soan papdi. */
  texture?: string;
}

/** An upright block seen from above a corner: centre of its top at (x, y), half-width w, height h. */
function cube(x: number, y: number, w: number, h: number, c: CubeColours, rng: Rng): string {
  const top = `${n(x - w)},${n(y)} ${n(x)},${n(y - w / 2)} ${n(x + w)},${n(y)} ${n(x)},${n(y + w / 2)}`;
  const left = `${n(x - w)},${n(y)} ${n(x)},${n(y + w / 2)} ${n(x)},${n(y + w / 2 + h)} ${n(x - w)},${n(y + h)}`;
  const right = `${n(x)},${n(y + w / 2)} ${n(x + w)},${n(y)} ${n(x + w)},${n(y + h)} ${n(x)},${n(y + w / 2 + h)}`;
  let out =
    `<polygon points="${left}" fill="${c.left}" stroke="${c.edge}" stroke-width="1" stroke-linejoin="round"/>` +
    `<polygon points="${right}" fill="${c.right}" stroke="${c.edge}" stroke-width="1" stroke-linejoin="round"/>` +
    `<polygon points="${top}" fill="${c.top}" stroke="${c.edge}" stroke-width="1" stroke-linejoin="round"/>`;
  if (c.texture) {
    for (let i = 0; i < 5; i++) {
      const u = rng() * 2 - 1;
      const v = rng() * 2 - 1;
      out += `<circle cx="${n(x + (u - v) * w * 0.45)}" cy="${n(y + (u + v) * w * 0.22)}" r="1.1" fill="${c.texture}"/>`;
    }
  }
  return out;
}

/** Blocks on a plate: paneer, mysore pak, soan papdi, jaggery. */
function blocks(name: string, c: CubeColours, plate: string): string {
  const rng = rngOf(name);
  // Back to front, so the nearer blocks overlap the farther.
  const places: [number, number][] = [[46, 44], [82, 44], [64, 58], [34, 70], [94, 70], [64, 84]];
  return (
    `<ellipse cx="64" cy="100" rx="58" ry="18" fill="${plate}"/>` +
    places.map(([x, y]) => cube(x, y, 17, 17, c, rng)).join('')
  );
}

/** Round sweets piled on a plate (ladoo), or sitting in syrup in a bowl (rasgulla, gulab jamun). */
function balls(name: string, options: { colour: string; shade: string; light: string; texture?: string; syrup?: string }): string {
  const rng = rngOf(name);
  const ball = (x: number, y: number, r: number) => {
    let out =
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${options.colour}"/>` +
      `<path d="M${n(x - r)} ${n(y)}A${n(r)} ${n(r)} 0 0 0 ${n(x + r)} ${n(y)}A${n(r)} ${n(r * 0.6)} 0 0 1 ${n(x - r)} ${n(y)}Z" fill="${options.shade}"/>` +
      `<ellipse cx="${n(x - r * 0.35)}" cy="${n(y - r * 0.4)}" rx="${n(r * 0.32)}" ry="${n(r * 0.22)}" fill="${options.light}" transform="rotate(-35 ${n(x - r * 0.35)} ${n(y - r * 0.4)})"/>`;
    if (options.texture) {
      for (let i = 0; i < 7; i++) {
        const a = rng() * Math.PI * 2;
        const d = rng() * r * 0.8;
        out += `<circle cx="${n(x + Math.cos(a) * d)}" cy="${n(y + Math.sin(a) * d)}" r="${n(0.9 + rng() * 0.8)}" fill="${options.texture}"/>`;
      }
    }
    return out;
  };
  if (options.syrup) {
    return (
      bowlBack(BRASS, options.syrup) +
      ball(42, 74, 17) +
      ball(86, 74, 17) +
      ball(64, 66, 17) +
      bowlFront(BRASS)
    );
  }
  return (
    `<ellipse cx="64" cy="108" rx="60" ry="14" fill="#d8dee3"/>` +
    ball(34, 90, 19) +
    ball(94, 90, 19) +
    ball(64, 92, 19) +
    ball(48, 62, 19) +
    ball(80, 62, 19) +
    ball(64, 34, 19)
  );
}

/** Kaju katli: flat diamonds with silver leaf, fanned on a plate. */
function kajuKatli(): string {
  const diamond = (x: number, y: number) =>
    `<path d="M${x - 26} ${y}L${x} ${y - 14}L${x + 26} ${y}L${x} ${y + 14}Z" fill="#efe2c9" stroke="#c9b48f" stroke-width="1"/>` +
    `<path d="M${x - 26} ${y}L${x} ${y + 14}L${x + 26} ${y}L${x + 26} ${y + 5}L${x} ${y + 19}L${x - 26} ${y + 5}Z" fill="#dcc6a0"/>` +
    `<path d="M${x - 14} ${y - 2}L${x} ${y - 9}L${x + 16} ${y - 1}L${x + 2} ${y + 6}Z" fill="#f7f8f9" opacity="0.9"/>`;
  return (
    `<ellipse cx="64" cy="100" rx="60" ry="18" fill="#b7c3cc"/>` +
    diamond(40, 50) + diamond(88, 50) + diamond(64, 64) + diamond(36, 80) + diamond(92, 80) + diamond(64, 92)
  );
}

/** A glass jar of golden, grainy ghee with a red lid. */
function gheeJar(): string {
  const rng = rngOf('ghee-jar');
  let grains = '';
  for (let i = 0; i < 22; i++) {
    grains += `<circle cx="${n(30 + rng() * 68)}" cy="${n(62 + rng() * 48)}" r="${n(0.9 + rng() * 1.1)}" fill="${rng() < 0.5 ? '#f9d36e' : '#d99a16'}"/>`;
  }
  return (
    `<ellipse cx="64" cy="120" rx="44" ry="5" fill="#000" opacity="0.12"/>` +
    `<path d="M28 34H100Q108 34 108 44V108Q108 120 96 120H32Q20 120 20 108V44Q20 34 28 34Z" fill="#fff7e3" stroke="#c7ae7e" stroke-width="2"/>` +
    `<path d="M22 58H106V108Q106 118 96 118H32Q22 118 22 108Z" fill="#f0b429"/>` +
    `<ellipse cx="64" cy="58" rx="42" ry="5" fill="#ffd766"/>` +
    grains +
    `<path d="M30 50V106" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity="0.55"/>` +
    `<rect x="26" y="14" width="76" height="24" rx="6" fill="#c0392b"/>` +
    `<path d="M30 22H98M30 30H98" stroke="#e0675a" stroke-width="2.5"/>`
  );
}

/** Okra: three ridged green pods with their caps. */
function okra(): string {
  const pod = (x: number, y: number, angle: number) =>
    `<g transform="translate(${x} ${y}) rotate(${angle})">` +
    `<path d="M0 0C12 2 15 14 14 30C13 50 6 70 0 84C-6 70-13 50-14 30C-15 14-12 2 0 0Z" fill="#6cb33f" stroke="#3f7d1f" stroke-width="1.4"/>` +
    `<path d="M-7 12C-7 40-3 62 0 80M0 8V80M7 12C7 40 3 62 0 80" fill="none" stroke="#4a8f27" stroke-width="1.6"/>` +
    `<path d="M-6 14C-6 30-5 44-4 52" fill="none" stroke="#a8dc7e" stroke-width="2.2" stroke-linecap="round"/>` +
    `<path d="M-13 6Q0-5 13 6L10 14Q0 9-10 14Z" fill="#3f7d1f"/><path d="M0 0V-10" stroke="#3f7d1f" stroke-width="5" stroke-linecap="round"/></g>`;
  return pod(30, 26, -24) + pod(98, 26, 24) + pod(64, 20, 0);
}

/** Green chillies, curved, with their stalks. */
function greenChilli(): string {
  const chilli = (x: number, y: number, angle: number) =>
    `<g transform="translate(${x} ${y}) rotate(${angle})">` +
    `<path d="M-6 4C4-2 12 8 10 34C8 62 0 84-10 96C-6 76-4 56-8 30C-10 16-12 8-6 4Z" fill="#3f9a2a" stroke="#24661a" stroke-width="1.2"/>` +
    `<path d="M0 14C2 36 0 60-6 82" fill="none" stroke="#7cc45a" stroke-width="2" stroke-linecap="round"/>` +
    `<path d="M-8 6Q0-2 8 6L4 10Q0 7-4 10Z" fill="#24661a"/><path d="M0 2Q2-8 8-12" fill="none" stroke="#24661a" stroke-width="3.5" stroke-linecap="round"/></g>`;
  return chilli(36, 18, -22) + chilli(90, 18, 26) + chilli(62, 12, 4);
}

/** A cauliflower: creamy florets in green leaves. */
function cauliflower(): string {
  const rng = rngOf('cauliflower');
  let florets = '';
  for (let i = 0; i < 22; i++) {
    const a = rng() * Math.PI * 2;
    const d = Math.sqrt(rng());
    florets += `<circle cx="${n(64 + Math.cos(a) * d * 30)}" cy="${n(56 + Math.sin(a) * d * 20)}" r="${n(9 + rng() * 5)}" fill="${rng() < 0.5 ? '#f7f1da' : '#ece2c0'}" stroke="#d6c99c" stroke-width="0.8"/>`;
  }
  return (
    `<path d="M6 70Q20 30 50 44Q40 80 6 70Z" fill="#4f9a2a"/><path d="M122 70Q108 30 78 44Q88 80 122 70Z" fill="#4f9a2a"/>` +
    `<path d="M20 96Q30 60 64 66Q98 60 108 96Q64 120 20 96Z" fill="#3f8a22"/>` +
    florets +
    `<path d="M40 98Q64 80 88 98" fill="none" stroke="#7cc45a" stroke-width="3"/>`
  );
}

/** A dollop of something creamy (mayonnaise) in a bowl, with its swirl. */
function dollop(colour: string, shade: string): string {
  return (
    bowlBack(STEEL) +
    `<ellipse cx="64" cy="78" rx="44" ry="12" fill="${shade}"/>` +
    `<ellipse cx="64" cy="68" rx="36" ry="14" fill="${colour}" stroke="${shade}" stroke-width="1.5"/>` +
    `<ellipse cx="64" cy="54" rx="25" ry="11" fill="${colour}" stroke="${shade}" stroke-width="1.5"/>` +
    `<path d="M48 46Q64 20 70 30Q76 40 64 44" fill="${colour}" stroke="${shade}" stroke-width="1.5"/>` +
    `<ellipse cx="52" cy="62" rx="8" ry="3" fill="#fff"/>` +
    bowlFront(STEEL)
  );
}

/** Pav: soft buns baked side by side in a tray. */
function pav(): string {
  let out = `<rect x="8" y="40" width="112" height="74" rx="8" fill="#6f7b83"/>`;
  for (const y of [46, 78]) {
    for (const x of [14, 50, 86]) {
      out += `<rect x="${x}" y="${y}" width="34" height="30" rx="11" fill="#d0873a"/><ellipse cx="${x + 15}" cy="${y + 11}" rx="11" ry="6" fill="#eab26a"/>`;
    }
  }
  return out;
}

/** Burger buns: domed, with sesame on top. */
function burgerBuns(): string {
  const rng = rngOf('burger-buns');
  const bun = (x: number, y: number) => {
    let seeds = '';
    for (let i = 0; i < 8; i++) {
      seeds += `<ellipse cx="${n(x - 18 + rng() * 36)}" cy="${n(y - 20 + rng() * 12)}" rx="2" ry="1.1" fill="#fff6dc" transform="rotate(${Math.round(rng() * 180)} ${n(x)} ${n(y - 14)})"/>`;
    }
    return (
      `<path d="M${x - 30} ${y}Q${x - 30} ${y - 34} ${x} ${y - 34}Q${x + 30} ${y - 34} ${x + 30} ${y}Z" fill="#c9802f"/>` +
      `<rect x="${x - 30}" y="${y - 2}" width="60" height="14" rx="6" fill="#e9bf7c"/>` +
      `<ellipse cx="${x - 10}" cy="${y - 22}" rx="9" ry="4" fill="#e3a457"/>` +
      seeds
    );
  };
  return `<ellipse cx="64" cy="108" rx="58" ry="12" fill="#d8dee3"/>` + bun(36, 84) + bun(92, 84) + bun(64, 104);
}

/** Slices: rusk (toasted) or khari (flaky layers), leaning on one another. */
function slices(name: string, colour: string, edge: string, layers: boolean): string {
  const rng = rngOf(name);
  let out = `<ellipse cx="64" cy="108" rx="58" ry="12" fill="#d8dee3"/>`;
  for (const [x, angle] of [[30, -14], [54, -6], [78, 4], [100, 12]] as const) {
    out += `<g transform="translate(${x} 66) rotate(${angle})"><rect x="-14" y="-36" width="28" height="72" rx="7" fill="${colour}" stroke="${edge}" stroke-width="2"/>`;
    if (layers) out += `<path d="M-12 -22H12M-12 -8H12M-12 6H12M-12 20H12" stroke="${edge}" stroke-width="1.2"/>`;
    else for (let i = 0; i < 6; i++) out += `<circle cx="${n(-9 + rng() * 18)}" cy="${n(-30 + rng() * 60)}" r="1.2" fill="${edge}"/>`;
    out += `</g>`;
  }
  return out;
}

/** Nankhatai: pale, domed shortbread with a cracked top and a piece of pistachio, on a plate. */
function nankhatai(): string {
  const biscuit = (x: number, y: number) =>
    `<ellipse cx="${x}" cy="${y + 6}" rx="22" ry="8" fill="#d9b36c"/><path d="M${x - 22} ${y + 6}Q${x - 20} ${y - 12} ${x} ${y - 12}Q${x + 20} ${y - 12} ${x + 22} ${y + 6}Z" fill="#f2d79c"/>` +
    `<path d="M${x - 10} ${y - 4}l6 3 5-4 6 3" fill="none" stroke="#c99a4e" stroke-width="1.5"/><ellipse cx="${x + 2}" cy="${y - 8}" rx="3" ry="2" fill="#7fae3e"/>`;
  return `<ellipse cx="64" cy="100" rx="60" ry="18" fill="#d8dee3"/>` + biscuit(40, 66) + biscuit(88, 66) + biscuit(64, 90);
}

/** Salted crackers: square, golden, pricked with holes, fanned out. */
function crackers(): string {
  const cracker = (x: number, y: number, angle: number) => {
    let holes = '';
    for (const dx of [-10, 0, 10]) for (const dy of [-10, 0, 10]) holes += `<circle cx="${dx}" cy="${dy}" r="1.6" fill="#b07a30"/>`;
    return `<g transform="translate(${x} ${y}) rotate(${angle})"><rect x="-20" y="-20" width="40" height="40" rx="3" fill="#e9c57e" stroke="#b98a3c" stroke-width="2"/>${holes}</g>`;
  };
  return `<ellipse cx="64" cy="104" rx="60" ry="16" fill="#d8dee3"/>` + cracker(40, 62, -12) + cracker(86, 60, 10) + cracker(62, 84, 2);
}

/** Idlis: white steamed cakes on a banana leaf. */
function idli(): string {
  const cake = (x: number, y: number) =>
    `<ellipse cx="${x}" cy="${y + 6}" rx="24" ry="9" fill="#e4dfcc"/><path d="M${x - 24} ${y + 6}Q${x - 22} ${y - 12} ${x} ${y - 13}Q${x + 22} ${y - 12} ${x + 24} ${y + 6}Z" fill="#fbfaf2"/>` +
    `<ellipse cx="${x - 7}" cy="${y - 6}" rx="7" ry="3" fill="#fff"/>`;
  return (
    `<path d="M4 84Q64 40 124 84Q64 124 4 84Z" fill="#4f9a2a"/><path d="M8 84H120" stroke="#7cc45a" stroke-width="2"/>` +
    cake(40, 70) + cake(88, 70) + cake(64, 92)
  );
}

/** A dosa rolled on a plate, with coconut chutney and sambar beside it. */
function dosa(): string {
  return (
    `<ellipse cx="64" cy="80" rx="62" ry="36" fill="#d8dee3"/>` +
    `<rect x="10" y="52" width="108" height="30" rx="15" fill="#d9963c" transform="rotate(-14 64 67)"/>` +
    `<path d="M20 74L110 52" stroke="#efc27a" stroke-width="6" stroke-linecap="round"/>` +
    `<circle cx="44" cy="66" r="2" fill="#9a5a1c"/><circle cx="78" cy="58" r="2.4" fill="#9a5a1c"/><circle cx="96" cy="58" r="1.8" fill="#9a5a1c"/>` +
    `<ellipse cx="34" cy="98" rx="18" ry="8" fill="#6f7b83"/><ellipse cx="34" cy="97" rx="14" ry="5.5" fill="#f4f1e4"/>` +
    `<ellipse cx="92" cy="100" rx="18" ry="8" fill="#6f7b83"/><ellipse cx="92" cy="99" rx="14" ry="5.5" fill="#d9662a"/>`
  );
}

/** Dal and seed colours: fills (a few shades) and the edge. */
const dal = (colours: string[], detail: string, shape: GrainShape = 'lentil', size = 5.2): Grain => ({ shape, colours, detail, size });

/** Every drawing of ours by name, made on first use. */
const MAKERS: Record<string, () => string> = {
  // Dals and pulses: each its own colour and grain, so moong never looks like masoor (or rajma).
  'toor-dal': () => heap('toor-dal', [dal(['#f2c12e', '#e9b320', '#f7d257'], '#c99312')], { base: '#d9a11a' }),
  'moong-dal': () => heap('moong-dal', [dal(['#f6dc6a', '#f1d04e', '#fae58e'], '#cfae32', 'lentil', 4.6)], { base: '#e3c24a' }),
  'chana-dal': () => heap('chana-dal', [dal(['#e8b437', '#dca42a', '#f0c552'], '#b07e16', 'lentil', 5.6)], { base: '#c9931e' }),
  'masoor-dal': () => heap('masoor-dal', [dal(['#e8693a', '#df5a2c', '#f07f4e'], '#b3431c', 'lentil', 4.6)], { base: '#c44d22' }),
  'urad-dal': () =>
    heap('urad-dal', [dal(['#f5f1e4', '#ece6d2', '#faf7ee'], '#bdb39a', 'lentil', 4.4), { ...dal(['#2b2622', '#3a332d'], '#111'), share: 0.35 }], { base: '#cfc7b1' }),
  'kabuli-chana': () => heap('kabuli-chana', [dal(['#e6c58f', '#ddb77b', '#efd3a3'], '#b38d52', 'chickpea', 7)], { base: '#c9a46a', count: 34 }),
  'kala-chana': () => heap('kala-chana', [dal(['#6d3f22', '#7b4a2a', '#5c3319'], '#3b200f', 'chickpea', 5.6)], { base: '#4a2914', count: 44 }),
  'green-moong': () => heap('green-moong', [dal(['#5f8f2e', '#6d9f36', '#527f26'], '#3a5e18', 'round', 3.8)], { base: '#4a7022' }),
  lobia: () => heap('lobia', [dal(['#efe3c6', '#e6d7b4', '#f5ecd6'], '#b7a47b', 'eyed', 5.2)], { base: '#cbb78d', count: 42 }),
  // Flours and powders: besan yellow, maida white, ragi red-brown.
  besan: () => powder('besan', '#f2c94c', { shade: '#dfae2c', light: '#f9e08c' }),
  maida: () => powder('maida', '#fbfaf6', { shade: '#e7e4da', light: '#ffffff' }),
  sooji: () => powder('sooji', '#f1dc9c', { shade: '#dcc37c', light: '#f8ecc4', specks: '#c9ab5c' }),
  'ragi-flour': () => powder('ragi-flour', '#9a6150', { shade: '#7e4a3b', light: '#b98373' }),
  'jowar-flour': () => powder('jowar-flour', '#efe6d2', { shade: '#d9ceb5', light: '#f9f4ea', specks: '#b7a88a' }),
  'bajra-flour': () => powder('bajra-flour', '#a9a78a', { shade: '#8f8d70', light: '#c4c2a8', specks: '#6f6d55' }),
  'rice-flour': () => powder('rice-flour', '#f7f6f2', { shade: '#e2e0d8', light: '#ffffff', bowl: CLAY }),
  'turmeric-powder': () => powder('turmeric-powder', '#eba21b', { shade: '#d08a0e', light: '#f6c04e', bowl: BRASS }),
  'chilli-powder': () => powder('chilli-powder', '#c7301f', { shade: '#a52414', light: '#e0553f', bowl: BRASS }),
  'coriander-powder': () => powder('coriander-powder', '#a48f5c', { shade: '#8a7645', light: '#bfae80', specks: '#6f5d32', bowl: BRASS }),
  'garam-masala': () => powder('garam-masala', '#6e4128', { shade: '#57301b', light: '#8d5a3d', specks: '#2e1a0e', bowl: BRASS }),
  'kitchen-king-masala': () => powder('kitchen-king-masala', '#a5502c', { shade: '#87401f', light: '#c26c45', specks: '#5a2510', bowl: BRASS }),
  'chhole-masala': () => powder('chhole-masala', '#5b3020', { shade: '#472314', light: '#7b4a35', specks: '#c7301f', bowl: BRASS }),
  'sambar-masala': () => powder('sambar-masala', '#b84a22', { shade: '#9a3a17', light: '#d06a40', specks: '#e8b437', bowl: BRASS }),
  'pav-bhaji-masala': () => powder('pav-bhaji-masala', '#a8352a', { shade: '#8a281e', light: '#c8564a', specks: '#4a1d12', bowl: BRASS }),
  hing: () => powder('hing', '#ecd9a2', { shade: '#d6c081', light: '#f7ebc6', bowl: BRASS }),
  'jaggery-powder': () => powder('jaggery-powder', '#b97a36', { shade: '#9b6127', light: '#d59b58', specks: '#7a4a1c', bowl: CLAY }),
  'haldi-doodh': () => powder('haldi-doodh', '#f1c25a', { shade: '#dca53c', light: '#f8dc92', specks: '#8a5a1c', bowl: BRASS }),
  churna: () => powder('churna', '#8a7a46', { shade: '#706234', light: '#a89a66', specks: '#4f4322', bowl: BRASS }),
  sugar: () => heap('sugar', [dal(['#ffffff', '#f4f6f8', '#e9edf0'], '#b9c2c9', 'flake', 2.6)], { base: '#dfe4e8', count: 64 }),
  mishri: () => heap('mishri', [dal(['#f7f9fb', '#eaf0f4', '#ffffff'], '#a9b6bf', 'flake', 6.5)], { base: '#d7dee3', count: 30 }),
  'khandsari-sugar': () => heap('khandsari-sugar', [dal(['#f3e2b8', '#ead59f', '#f8ecd0'], '#c6ad72', 'flake', 2.6)], { base: '#dcc48e', count: 64 }),
  atta: () => powder('atta', '#ead5aa', { shade: '#d5bc8a', light: '#f6e9cc', specks: '#a9844e' }),
  'multigrain-atta': () => powder('multigrain-atta', '#d3b987', { shade: '#bca06c', light: '#e6d3ac', specks: '#5e4526' }),
  // Dairy.
  paneer: () => blocks('paneer', { top: '#fffdf6', left: '#f1ead7', right: '#e2d6b9', edge: '#bba77c' }, '#8fb36a'),
  curd: () => curd(),
  'ghee-jar': () => gheeJar(),
  mayonnaise: () => dollop('#fbf6e2', '#e4d9b4'),
  // Vegetables and fruit.
  okra: () => okra(),
  'green-chilli': () => greenChilli(),
  cauliflower: () => cauliflower(),
  amla: () => balls('amla', { colour: '#c3db78', shade: '#a3bf58', light: '#eef7c8' }),
  // Bakery and breakfast.
  pav: () => pav(),
  'burger-buns': () => burgerBuns(),
  rusk: () => slices('rusk', '#d49040', '#9a5a1c', false),
  khari: () => slices('khari', '#ecc57c', '#b98836', true),
  idli: () => idli(),
  nankhatai: () => nankhatai(),
  crackers: () => crackers(),
  dosa: () => dosa(),
  dhokla: () => blocks('dhokla', { top: '#f3d24e', left: '#e4bd30', right: '#cfa823', edge: '#a8841a', texture: '#2e2a22' }, '#8fb36a'),
  // Rice and grains that are not a bowl of cooked rice.
  poha: () => heap('poha', [dal(['#f7f1e1', '#efe6cf', '#fbf8ee'], '#c9bb98', 'flake', 5)], { base: '#ddd0ad', count: 48 }),
  sabudana: () => heap('sabudana', [dal(['#fbfbf7', '#f1f1ea'], '#c7c7bb', 'pearl', 3.6)], { base: '#dcdcd0', count: 64 }),
  dalia: () => heap('dalia', [dal(['#c99a58', '#b8874a', '#d9ad6c'], '#8c6331', 'flake', 3)], { base: '#a97a3f', count: 64 }),
  'foxtail-millet': () => heap('foxtail-millet', [dal(['#e9c64a', '#dfb83a', '#f2d36a'], '#b48f1d', 'round', 2.4)], { base: '#c9a230', count: 64 }),
  'brown-rice': () => heap('brown-rice', [dal(['#c8a072', '#b98f60', '#d6b185'], '#8f6a40', 'rice', 3.6)], { base: '#a9845a', count: 56 }),
  'basmati-rice': () => heap('basmati-rice', [dal(['#fbf8ef', '#f2ede0', '#ffffff'], '#c9c0a8', 'rice', 3.8)], { base: '#e2dac6', count: 56, bowl: CLAY }),
  // Spices and seeds.
  jeera: () => heap('jeera', [dal(['#9b7a45', '#8a6a38', '#ab8b55'], '#5f4622', 'seed', 4.6)], { base: '#6f5428', count: 64, bowl: BRASS }),
  'black-pepper': () => heap('black-pepper', [dal(['#2f2823', '#3c332c', '#262019'], '#0f0c0a', 'round', 3.6)], { base: '#1f1a16', bowl: BRASS }),
  cardamom: () => heap('cardamom', [dal(['#9cb866', '#8eab58', '#aac777'], '#5f7a34', 'seed', 7)], { base: '#6f8a40', count: 38, bowl: BRASS }),
  'mustard-seeds': () => heap('mustard-seeds', [dal(['#6b3b1f', '#7d4a28', '#5a2f17'], '#2f1709', 'round', 2.8)], { base: '#4a2612', count: 64, bowl: BRASS }),
  'sesame-seeds': () => heap('sesame-seeds', [dal(['#f4ead2', '#ebdfc0', '#faf3e2'], '#bfae86', 'seed', 3.2)], { base: '#d8c9a2', count: 64, bowl: BRASS }),
  'soya-beans': () => heap('soya-beans', [dal(['#ecd28e', '#e2c57a', '#f3dea6'], '#b49650', 'round', 5.4)], { base: '#c9aa62', count: 44 }),
  'flax-seeds': () => heap('flax-seeds', [dal(['#8a5431', '#7a4727', '#9a643d'], '#4c2a14', 'seed', 3.4)], { base: '#5e371d', count: 64 }),
  saffron: () => heap('saffron', [dal(['#c8281b', '#b0200f', '#d9432a'], '#7d1408', 'thread', 6)], { base: '#f6efe2', count: 30, bowl: BRASS }),
  // Dry fruits and nuts.
  almonds: () => heap('almonds', [dal(['#a8632f', '#99582a', '#b87340'], '#6d3b17', 'seed', 8)], { base: '#7e4620', count: 34, bowl: CLAY }),
  cashews: () => heap('cashews', [dal(['#f0dcb2', '#e8cf9f', '#f6e7c8'], '#b99e68', 'cashew', 8)], { base: '#d6bd88', count: 32, bowl: CLAY }),
  raisins: () => heap('raisins', [dal(['#b8a043', '#a88f36', '#c9b257'], '#6f5c1a', 'wrinkled', 4.6)], { base: '#8a7427', count: 46, bowl: CLAY }),
  walnuts: () => heap('walnuts', [dal(['#a8784a', '#97683c', '#b98a5a'], '#5e3d1d', 'walnut', 8)], { base: '#7a5230', count: 28, bowl: CLAY }),
  pistachios: () => heap('pistachios', [dal(['#e9d8b0', '#dfcb9e', '#f1e4c6'], '#a8915e', 'pistachio', 7)], { base: '#c9b37f', count: 34, bowl: CLAY }),
  dates: () => heap('dates', [dal(['#5a2a14', '#6b3419', '#4a220f'], '#2a1206', 'wrinkled', 8)], { base: '#3a1a0a', count: 26, bowl: CLAY }),
  makhana: () => heap('makhana', [dal(['#f7f2e4', '#efe7d2', '#fbf8ef'], '#a38d6a', 'pearl', 8)], { base: '#d8ccae', count: 28, bowl: CLAY }),
  figs: () => heap('figs', [dal(['#b78d5c', '#a67c4c', '#c79e6d'], '#6e4d27', 'walnut', 9)], { base: '#8c6a3e', count: 24, bowl: CLAY }),
  tamarind: () => heap('tamarind', [dal(['#7a4a24', '#6a3e1c', '#8a5830'], '#3f2410', 'wrinkled', 8)], { base: '#4f2f15', count: 24, bowl: CLAY }),
  // Namkeen.
  sev: () => heap('sev', [dal(['#e9a93c', '#f0b94e', '#dc9a2c'], '#b4741a', 'strand', 5)], { base: '#d8962e', count: 64 }),
  'ratlami-sev': () => heap('ratlami-sev', [dal(['#e08a2e', '#d57a22', '#ea9a40'], '#a65614', 'strand', 6), { ...dal(['#b5301e'], '#7a1a0c', 'round', 1.2), share: 0.2 }], { base: '#c7701c', count: 64 }),
  'namkeen-mix': () =>
    heap('namkeen-mix', [
      dal(['#e9a93c', '#f0b94e'], '#b4741a', 'strand', 5),
      { ...dal(['#b0532a', '#9c4522'], '#6d2c12', 'seed', 4), share: 0.5 },
      { ...dal(['#f08a24', '#e8791a'], '#b65a10', 'round', 2.6), share: 0.5 },
      { ...dal(['#3f8a3a'], '#2a5f26', 'seed', 3), share: 0.2 },
    ], { base: '#cf8c2c', count: 64 }),
  'khatta-meetha-mix': () =>
    heap('khatta-meetha-mix', [
      dal(['#f0c24e', '#e9b43c'], '#b4841a', 'strand', 5),
      { ...dal(['#e96a2a', '#f07e3a'], '#b04a14', 'round', 2.6), share: 0.6 },
      { ...dal(['#6a3a2a', '#7d4a33'], '#3a1d12', 'wrinkled', 3), share: 0.3 },
      { ...dal(['#c08a4a'], '#7a5424', 'seed', 4), share: 0.4 },
    ], { base: '#d49a3a', count: 64 }),
  'moong-namkeen': () => heap('moong-namkeen', [dal(['#e8c24a', '#f0d060', '#d9ae34'], '#a9801a', 'lentil', 3.8)], { base: '#c99d2a', count: 64 }),
  'banana-chips': () => heap('banana-chips', [dal(['#f5d84c', '#f0cc3a', '#f8e27a'], '#c99a1a', 'disc', 10)], { base: '#d8b030', count: 20 }),
  'potato-chips': () => heap('potato-chips', [dal(['#f0c04e', '#e8b23c', '#f5cf6e'], '#c4541e', 'disc', 11)], { base: '#c99a30', count: 18 }),
  bhakarwadi: () => heap('bhakarwadi', [dal(['#c07a36', '#b06c2c', '#cf8a46'], '#6a3812', 'spiral', 9)], { base: '#8a5220', count: 18 }),
  khakhra: () => heap('khakhra', [dal(['#d9a45a', '#cf984c', '#e3b06a'], '#9a6424', 'disc', 15)], { base: '#b4803c', count: 9, bowl: BRASS }),
  mathri: () => heap('mathri', [dal(['#eed29a', '#e6c688', '#f4dcac'], '#b9945a', 'disc', 10)], { base: '#cfae72', count: 18, bowl: BRASS }),
  // Mithai.
  ladoo: () => balls('ladoo', { colour: '#f3a42c', shade: '#d9861a', light: '#ffd27a', texture: '#c9761a' }),
  rasgulla: () => balls('rasgulla', { colour: '#fbf7ea', shade: '#e8e0c8', light: '#ffffff', syrup: '#f3e3a6' }),
  'gulab-jamun': () => balls('gulab-jamun', { colour: '#7a3315', shade: '#5a220b', light: '#b0603a', syrup: '#e2a94f' }),
  'kaju-katli': () => kajuKatli(),
  'mysore-pak': () => blocks('mysore-pak', { top: '#f3b843', left: '#e09d2d', right: '#c98520', edge: '#a86a14', texture: '#b8741a' }, '#d8dee3'),
  'soan-papdi': () => blocks('soan-papdi', { top: '#f5dfa0', left: '#ead089', right: '#d9bc72', edge: '#b89c52', texture: '#7fae3e' }, '#d8dee3'),
  jaggery: () => blocks('jaggery', { top: '#b5722f', left: '#9c5f24', right: '#824c1b', edge: '#5e3510', texture: '#d69a55' }, '#8fb36a'),
};

const made = new Map<string, string>();

/** Whether `name` is one of our drawings. */
export function isFoodDrawing(name: string): boolean {
  return name in MAKERS;
}

/** The names of our drawings (for the tests). */
export const FOOD_DRAWINGS: readonly string[] = Object.keys(MAKERS);

/** The body of our drawing `name`, in a DRAWING_SIZE square. */
export function foodDrawing(name: string): string | undefined {
  const make = MAKERS[name];
  if (!make) return undefined;
  let body = made.get(name);
  if (body === undefined) {
    body = make();
    made.set(name, body);
  }
  return body;
}
