// The load test's shoppers and what it checks in the database afterwards (scripts/load.ts).
//
// Shoppers are inserted into the database directly, with a verified mobile number (orders refuse an unverified one)
// and, for those who order, a delivery address: registering each through the API would cost a text message's code
// read from a shop's outbox and a registration limit per address, and prove nothing the API tests do not. They then
// sign in through the balancer like anyone else.
import pg from 'pg';
import { hashPassword } from '../../src/server/auth/passwords.ts';

export const PASSWORD = 'load-test shopper passphrase 7391';

export interface Shopper {
  index: number;
  userId: number;
  email: string;
  phone: string;
  /** The address they come from (X-Forwarded-For, believed by nginx from loopback): each has their own rate limits. */
  ip: string;
  token: string;
  addressId: number;
}

export function openPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // The outage ends the pool's idle connections; the pool opens new ones when asked, and an unheard 'error' would
  // end this process.
  pool.on('error', () => {});
  return pool;
}

/** Plain products (no pack sizes) in stock, their shelves filled so that orders never empty one: ids. */
export async function stockedProducts(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>(`
    select p.id from products p
    where p.in_stock and p.stock > 0 and not exists (select 1 from product_variants v where v.product_id = p.id)
    order by p.id`);
  const ids = rows.map((r) => r.id);
  await pool.query('update products set stock = 1000000 where id = any($1)', [ids]);
  return ids;
}

/** Every product id, for the product pages. */
export async function productIds(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>('select id from products order by id');
  return rows.map((r) => r.id);
}

const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i & 255) + 1}`;

/** `count` verified shoppers with an address each, new to this run (`run` keeps their emails and numbers apart). */
export async function insertShoppers(pool: pg.Pool, count: number, run: number): Promise<Omit<Shopper, 'token'>[]> {
  const hash = await hashPassword(PASSWORD);
  const shoppers: Omit<Shopper, 'token'>[] = [];
  for (let i = 0; i < count; i++) {
    const email = `load-${run}-${i}@kirana.test`;
    // A 10-digit Indian mobile (6 to 9 first), different for every run and shopper.
    const phone = `9${String((run * 10_000 + i) % 1_000_000_000).padStart(9, '0')}`;
    const user = await pool.query<{ id: number }>(
      `insert into users (email, name, phone, password_hash, phone_verified_at) values ($1, $2, $3, $4, now()) returning id`,
      [email, `Load Shopper ${i}`, phone, hash],
    );
    const userId = user.rows[0]!.id;
    const address = await pool.query<{ id: number }>(
      `insert into addresses (user_id, name, phone, line1, city, state, pincode, is_default)
       values ($1, $2, $3, $4, 'Bengaluru', 'Karnataka', '560011', true) returning id`,
      [userId, `Load Shopper ${i}`, phone, `${i + 1}, 4th Cross, Jayanagar`],
    );
    shoppers.push({ index: i, userId, email, phone, ip: ipOf(i), addressId: address.rows[0]!.id });
  }
  return shoppers;
}

/** Signs each shopper in through the balancer, a few at a time (each is a scrypt hash on a shop). */
export async function signIn(url: string, shoppers: Omit<Shopper, 'token'>[], concurrency = 4): Promise<Shopper[]> {
  const out: Shopper[] = new Array(shoppers.length);
  let next = 0;
  const worker = async () => {
    while (next < shoppers.length) {
      const s = shoppers[next++]!;
      const res = await fetch(`${url}/api/Authenticate/Login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': s.ip },
        body: JSON.stringify({ login: s.email, password: PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`sign-in of ${s.email} answered ${res.status}: ${await res.text()}`);
      const { token } = (await res.json()) as { token: string };
      out[s.index - shoppers[0]!.index] = { ...s, token };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

/** Cart lines of these shoppers: `userId:productId` → qty. */
export async function cartQuantities(pool: pg.Pool, userIds: number[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ user_id: number; product_id: number; qty: number }>(
    'select user_id, product_id, qty from cart_lines where user_id = any($1)',
    [userIds],
  );
  return new Map(rows.map((r) => [`${r.user_id}:${r.product_id}`, r.qty]));
}

/** Orders of these shoppers: id, user and Idempotency-Key. */
export async function ordersOf(pool: pg.Pool, userIds: number[]) {
  const { rows } = await pool.query<{ id: number; user_id: number; idempotency_key: string }>(
    'select id, user_id, idempotency_key from orders where user_id = any($1)',
    [userIds],
  );
  return rows;
}
