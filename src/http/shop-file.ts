// DATA_DIR/shop.json: where the shop that holds the data folder is listening, so `npm run orders` can go through it
// (only one process may open the embedded database). Written once listening, removed on shutdown.
import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../server/db/data-folder.ts';

export const SHOP_FILE = 'shop.json';

export interface RunningShop {
  /** The origin the API is under (`${url}/api/...`). */
  url: string;
  pid: number;
}

/** Writes the file (0600) and removes it when this process exits; returns its removal, for a shutdown to call first. */
export function announceShop(dataDir: string, url: string): () => void {
  const file = path.join(dataDir, SHOP_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const shop: RunningShop = { url, pid: process.pid };
  fs.writeFileSync(file, `${JSON.stringify(shop)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  const remove = () => {
    // Only our own: a shop started later at the same folder may have written its own since.
    if (readShopFile(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.once('exit', remove);
  return remove;
}

function readShopFile(dataDir: string): RunningShop | undefined {
  try {
    const shop = JSON.parse(fs.readFileSync(path.join(dataDir, SHOP_FILE), 'utf8')) as Partial<RunningShop>;
    return typeof shop.url === 'string' && Number.isInteger(shop.pid) ? (shop as RunningShop) : undefined;
  } catch {
    return undefined;
  }
}

/** The shop running at this data folder, or undefined (no file, or its process is gone: killed without cleaning up). */
export function runningShop(dataDir: string): RunningShop | undefined {
  const shop = readShopFile(dataDir);
  return shop && isAlive(shop.pid) ? shop : undefined;
}
