// Reads a response as Node sends it: the moment the handler sends its status and headers (writeHead, or
// its first write), with every header it set either way, and lets the caller take the body from there.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Takes the body in place of the socket. */
export interface BodySink {
  write(chunk: Buffer): void;
  end(): void;
}

/** The response's own methods, for a sink to send with. */
export interface RawResponse {
  writeHead(): void;
  write(chunk: Buffer): void;
  end(chunk?: Buffer): void;
}

type Chunk = string | Uint8Array;

function toBuffer(chunk: Chunk, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function applyHeaders(res: ServerResponse, headers: unknown) {
  if (!headers) return;
  if (Array.isArray(headers)) {
    // [[name, value], …] or the flat [name, value, name, value, …]
    if (Array.isArray(headers[0])) for (const [name, value] of headers as [string, string][]) res.appendHeader(name, value);
    else for (let i = 0; i + 1 < headers.length; i += 2) res.appendHeader(String(headers[i]), headers[i + 1] as string);
    return;
  }
  for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) if (value !== undefined) res.setHeader(name, value);
}

/**
 * Calls `onHead` once, when the handler sends its head; by then `res.statusCode` and `res.getHeader` show the
 * whole head, which `onHead` may still change. When it returns a sink, the body goes there instead and the
 * sink sends through the `RawResponse` (it must call `writeHead` first); otherwise the body goes out as written.
 */
export function onResponseHead(res: ServerResponse, onHead: (raw: RawResponse) => BodySink | undefined): void {
  const writeHead = res.writeHead.bind(res) as (status: number) => ServerResponse;
  const write = res.write.bind(res) as (chunk: Chunk, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const raw: RawResponse = {
    writeHead: () => void writeHead(res.statusCode),
    write: (chunk) => void write(chunk),
    end: (chunk) => void (chunk ? end(chunk) : end()),
  };
  let headed = false;
  let sink: BodySink | undefined;

  const head = () => {
    if (headed) return;
    headed = true;
    sink = onHead(raw);
    if (!sink) writeHead(res.statusCode);
  };

  res.writeHead = ((status: number, reason?: unknown, headers?: unknown) => {
    if (headed) return res;
    if (typeof reason !== 'string') [reason, headers] = [undefined, reason];
    res.statusCode = status;
    if (reason) res.statusMessage = reason as string;
    applyHeaders(res, headers);
    head();
    return res;
  }) as typeof res.writeHead;

  res.write = ((chunk: Chunk, encoding?: unknown, callback?: unknown) => {
    head();
    if (!sink) return write(chunk, encoding, callback);
    sink.write(toBuffer(chunk, encoding));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof res.write;

  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    head();
    if (!sink) return end(chunk, encoding, callback);
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') sink.write(toBuffer(chunk as Chunk, encoding));
    sink.end();
    const done = [chunk, encoding, callback].find((a) => typeof a === 'function');
    if (done) res.once('finish', done as () => void);
    return res;
  }) as typeof res.end;
}

/** Adds `value` to the response's Vary header unless it is there already. */
export function addVary(res: ServerResponse, value: string) {
  const current = String(res.getHeader('vary') ?? '');
  const names = current.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (names.includes('*') || names.includes(value.toLowerCase())) return;
  res.setHeader('Vary', current ? `${current}, ${value}` : value);
}
