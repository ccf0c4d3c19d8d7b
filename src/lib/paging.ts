// ?page=N as shoppers and crawlers see it (1-based) against the API's pageNo (0-based).

/** The page number of a URL: a whole number from 1; anything else is page 1. */
export function pageFromUrl(url: URL, param = 'page'): number {
  const raw = url.searchParams.get(param);
  if (!raw || !/^\d{1,4}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
