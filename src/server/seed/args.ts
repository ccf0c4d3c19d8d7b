// The command line of `npm run seed` (scripts/seed.ts), apart so a test can check it without a database.

const USAGE = 'usage: npm run seed [-- --reset] [--products N] [--force]';
/** Above this the plan and the inserts take minutes and the shop's pages stop making sense as a demo. */
const MAX_PRODUCTS = 500_000;

export function parseSeedArgs(args: readonly string[]): { reset: boolean; force: boolean; products: number | undefined } {
  let reset = false;
  let force = false;
  let products: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const inline = /^--products=(.*)$/.exec(arg);
    if (arg === '--reset') reset = true;
    else if (arg === '--force') force = true;
    else if (arg === '--products' || inline) {
      const value = inline ? inline[1] : args[++i];
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > MAX_PRODUCTS) {
        throw new Error(`--products needs a whole number from 1 to ${MAX_PRODUCTS}, not ${value ?? 'nothing'} (${USAGE})`);
      }
      products = n;
    } else throw new Error(`Unknown argument ${arg} (${USAGE})`);
  }
  if (force && !reset) throw new Error(`--force only goes with --reset (${USAGE})`);
  return { reset, force, products };
}
