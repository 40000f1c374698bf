/// <reference types="node" />
/**
 * Serves the mock handlers over real HTTP from a Node server (the dev server uses it), so
 * curl or a page on another origin can use the mock console API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getResponse, type RequestHandler } from 'msw';

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Accept',
  'Access-Control-Max-Age': '600',
};

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Answers `req` from `handlers`; resolves `false` when no handler matched. */
export async function respondFromHandlers(handlers: RequestHandler[], req: IncomingMessage, res: ServerResponse, origin: string): Promise<boolean> {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS_HEADERS).end();
    return true;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const body = await readBody(req);
  const request = new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
  const response = await getResponse(handlers, request);
  if (!response) return false;
  if (response.type === 'error') {
    req.socket.destroy();
    return true;
  }
  const outHeaders: Record<string, string> = { ...CORS_HEADERS };
  response.headers.forEach((value, name) => (outHeaders[name] = value));
  res.writeHead(response.status, outHeaders);
  res.end(Buffer.from(await response.arrayBuffer()));
  return true;
}
