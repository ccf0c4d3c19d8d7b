// Password hashing with scrypt from node:crypto, in threads of its own (scrypt-pool.ts), and the common-password check.
import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { ScryptPool } from './scrypt-pool.ts';

export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** OWASP's Password Storage Cheat Sheet: N=2^17, r=8, p=1 (128 MiB per hash). */
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;

/**
 * The form of a password that is hashed and checked: NFKC, so 'ｐａｓｓｗｏｒｄ１２３' (full-width) and 'password123' are
 * one password, whichever way a keyboard or a password manager typed it.
 */
export const passwordForm = (password: string) => password.normalize('NFKC');

/** The process's hashing threads (scrypt-pool.ts): a bounded few at once, apart from libuv's pool. */
const scryptPool = new ScryptPool();

/** Throws the 503 (code `busy`, Retry-After) a hash would meet now, before a caller's own work for it. */
export const refuseWhenHashingBusy = () => scryptPool.refuseWhenFull();

/** Ends the hashing threads; the shop's shutdown calls it once its requests are answered. */
export const closePasswordHashing = () => scryptPool.close();

/** Rejects with a 503 ApiError (code `busy`, Retry-After) when too many hashes wait already. */
function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is below what N=2^17, r=8 needs (128 * N * r bytes); leave room.
  const options: ScryptOptions = { ...cost, maxmem: 128 * cost.N * cost.r * 2 };
  return scryptPool.derive(passwordForm(password), salt, KEY_BYTES, options);
}

/** `scrypt$N$r$p$salt$key` (base64url): the parameters travel with the hash, so raising them later keeps old ones valid. */
export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let commonPasswords: Set<string> | undefined;

/** Straight runs, forwards and backwards; digits go round ('7890123'). */
const RUNS = ['0123456789'.repeat(14), 'abcdefghijklmnopqrstuvwxyz'].flatMap((run) => [run, [...run].reverse().join('')]);

/**
 * Words a guesser tries first against this shop (ASVS 6.2.11: the service's name and context): with digits and signs
 * added ('kirana123', 'Kirana@123', 'india@123'), they are as common as 'password123'.
 */
const CONTEXT_WORDS = ['kirana', 'india', 'bharat', 'hindustan', 'jaihind', 'grocery', 'groceries', 'shop', 'store', 'mystore'];

/**
 * Whether a password is easy to guess, on the form that is hashed (NFKC) and without letter case: one of zxcvbn-ts's
 * list of about 49,000 passwords seen most often in breaches, or the shop's own words, alone or with digits and signs
 * around them ('Password@123', 'kirana2026'); nothing but spaces (or invisible characters), one character or a short
 * pattern repeated ('aaaaaaaa', 'abcabcabc'), or a straight run ('1234567890', 'zyxwvuts').
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  const form = passwordForm(password).toLowerCase();
  // The word inside the digits and signs people add to meet a rule: 'Kirana@123' is 'kirana'.
  const word = form.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  return (
    commonPasswords.has(form) ||
    (word !== '' && (commonPasswords.has(word) || CONTEXT_WORDS.includes(word))) ||
    /^[\p{White_Space}\p{Cc}\p{Cf}]*$/u.test(form) ||
    /^(.{1,4})\1+$/su.test(form) ||
    RUNS.some((run) => run.includes(form))
  );
}

export const COMMON_PASSWORD_MESSAGE =
  'This password is easy to guess: one of the most common ones, one character or a short pattern repeated, or a run like 12345678. Please choose another.';
