// The HTTP edges of the API, so that every answer keeps its contract under hostile input:
// - bodies: only application/json (else 415), valid UTF-8 (else 400 saying so), nested at
//   most MAX_BODY_DEPTH levels and holding only numbers JSON can carry (checked iteratively,
//   so no body can overflow the stack anywhere later);
// - validation: request bodies are validated without type coercion (`"limit": true` is a
//   400, not 1); querystrings and path parameters, which are text, are coerced;
// - no matching route: 404, or 405 with `Allow` when the path exists for other methods;
// - errors fastify or Node answer before a route runs (a malformed %-escape, headers or a
//   URL over the server's limit, a client timeout) get the API's error body too.
// Every error body is {"error":{"code","message"}}.
import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import AjvModule from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkJson } from '../collection/document.js';
import { MAX_DOC_DEPTH } from '../collection/document.js';

/** Nesting levels of a request body: a document (MAX_DOC_DEPTH) inside the batch, with room. */
export const MAX_BODY_DEPTH = MAX_DOC_DEPTH + 8;
/**
 * Node's limit on the request line and headers together (its default): a longer URL or
 * header block is answered 431 before any route runs.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

const Ajv = AjvModule.default;

export function errorJson(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** An error a hook or parser hands to fastify: the gateway's error handler maps it by status and code. */
export class ProtocolError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON text each parsed request body came from (held only as long as the request). */
const bodyTexts = new WeakMap<FastifyRequest, Buffer>();

/** The bytes the request's JSON body was parsed from, if it had one: the write route stores documents as sent. */
export function bodyText(req: FastifyRequest): Buffer | undefined {
  return bodyTexts.get(req);
}

/** The charset parameter of a Content-Type, lower-cased; undefined when it names none. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const UTF8_NAMES: ReadonlySet<string> = new Set(['utf-8', 'utf8']);

/**
 * A body this node cannot read as sent is refused before it is read (415): one compressed or
 * otherwise encoded (`Content-Encoding`: the bytes would be taken for JSON text, or refused as
 * "not UTF-8"), or declared in a charset other than UTF-8 (it would be read as UTF-8).
 */
function unreadableBody(req: FastifyRequest): ProtocolError | undefined {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return new ProtocolError(415, 'unsupported_media_type', `Content-Encoding "${encoding.slice(0, 64)}" is not accepted: send the body uncompressed, without a Content-Encoding header`);
  }
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8_NAMES.has(charset)) {
    return new ProtocolError(415, 'unsupported_media_type', `charset "${charset.slice(0, 64)}" is not accepted: send JSON in UTF-8 (Content-Type: application/json or application/json; charset=utf-8)`);
  }
  return undefined;
}

/** Only JSON bodies, checked for UTF-8, depth and numbers before any route sees them. */
export function registerBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  // Before the parser reads the body (preParsing), only for a request that has one.
  app.addHook('preParsing', (req, _reply, payload, done) => {
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    done(hasBody ? unreadableBody(req) ?? null : null, payload);
  });
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (req, raw, done) => {
    const buf = raw as Buffer;
    // No bytes is no body, as without a Content-Type (clients send the header on a DELETE too):
    // a route without a body goes on, and the unknown route or method is still 404 or 405.
    if (buf.length === 0) return done(null, undefined);
    if (!isUtf8(buf)) return done(new ProtocolError(400, 'invalid_encoding', 'the body is not valid UTF-8; send JSON text encoded as UTF-8'), undefined);
    // JSON.parse's own message says where the text goes wrong; the prototype keys fastify's
    // parser would refuse without naming them are refused by checkJson, with their path.
    let body: unknown;
    try {
      body = JSON.parse(buf.toString('utf8'));
    } catch (e) {
      return done(new ProtocolError(400, 'invalid_json', `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
    const bad = checkJson(body, MAX_BODY_DEPTH);
    if (bad) return done(new ProtocolError(400, 'invalid_argument', `body${bad.path}: ${bad.why}`), undefined);
    bodyTexts.set(req, buf);
    done(null, body);
  });
}

/** Bodies are validated as sent; text parts (querystring, params, headers) are coerced from strings. */
export function registerValidators(app: FastifyInstance): void {
  // verbose: an error carries its schema, so an anyOf's refusal can say what each branch takes.
  const common = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false, verbose: true } as const;
  const strict = new Ajv({ ...common, coerceTypes: false });
  const coercing = new Ajv({ ...common, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object));
}

/** The methods each registered path pattern answers, for 405 and `Allow`. */
export class RouteTable {
  private readonly routes: { re: RegExp; methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, { re: RegExp; methods: Set<string> }>();

  /** Call before any route is added. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (r) => {
      let e = this.byUrl.get(r.url);
      if (!e) {
        const re = new RegExp(`^${r.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}$`);
        e = { re, methods: new Set() };
        this.byUrl.set(r.url, e);
        this.routes.push(e);
      }
      for (const m of Array.isArray(r.method) ? r.method : [r.method]) e.methods.add(m);
      if (e.methods.has('GET')) e.methods.add('HEAD');
    });
  }

  /** The methods of the first pattern the path matches (empty: no such path). */
  allowed(path: string): string[] {
    for (const r of this.routes) if (r.re.test(path)) return [...r.methods].sort();
    return [];
  }
}

/**
 * A request no route matched: 405 with Allow when the path exists for other methods, 400
 * when it exists for this one but a parameter is over the router's limit, else 404.
 */
export function notFound(table: RouteTable, maxParamLength: number) {
  return (req: FastifyRequest, reply: FastifyReply): void => {
    const path = req.url.split('?')[0]!;
    const allow = table.allowed(path);
    if (allow.includes(req.method)) {
      void reply
        .status(400)
        .type('application/json')
        .send(errorJson('invalid_argument', `a path parameter is longer than ${maxParamLength} characters (a primary key is at most ${Math.floor(maxParamLength / 3)} bytes)`));
      return;
    }
    if (allow.length > 0) {
      void reply
        .status(405)
        .header('Allow', allow.join(', '))
        .type('application/json')
        .send(errorJson('method_not_allowed', `${req.method} is not allowed on ${path}; allowed: ${allow.join(', ')}`));
      return;
    }
    void reply.status(404).type('application/json').send(errorJson('not_found', `no route ${req.method} ${path}; see /v1/openapi.json`));
  };
}

/** Errors fastify raises before routing (a malformed %-escape in the path). */
export function frameworkErrors(err: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply): void {
  const bad = err.code === 'FST_ERR_BAD_URL';
  void reply
    .status(400)
    .type('application/json')
    .send(errorJson(bad ? 'invalid_url' : 'bad_request', bad ? 'the URL has an invalid %-escape; percent-encode each byte of UTF-8 as %XX' : err.message));
}

/** Errors Node's HTTP parser raises before fastify sees a request: answered on the socket. */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body = errorJson('bad_request', 'the request is not valid HTTP/1.1');
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = errorJson('headers_too_large', `the request line and headers are over ${MAX_HEADER_BYTES} bytes; shorten the URL (send a long query in a POST body) or the headers`);
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = errorJson('request_timeout', 'the request was not received in time');
  }
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
