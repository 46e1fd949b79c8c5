// What a 2xx answer must hold before the client hands it on. A server that is not Loam (a
// proxy's or another service's 200, `{"hello":"world"}`) would otherwise pass as success: a
// write "done" with no token, a list of undefined. Each route names the few fields the client
// and the CLI read, typed against the generated answer types (a field the API renames fails
// tsc here). Not a validator of the whole document: the server's response schemas mark no
// field required, so validating against them would accept `{"hello":"world"}` too.
import type { Collection, CreatedKey, CreatedOrg, Erasure, EraseResult, ErasureList, ErasureVerification, Binding, Namespace, NamespaceKey, Org, OrgList, OrgQuotaSet, Page, Placement, QueryPage, Quotas, Usage, WriteResult } from './types.js';

/** Says what a body lacks ("no string \"token\""), or null when it has the route's shape. */
export type Shape = (body: unknown) => string | null;

type Kind = 'string' | 'integer' | 'boolean' | 'object' | 'array' | 'cursor';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function fits(v: unknown, k: Kind): boolean {
  switch (k) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isSafeInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'cursor':
      // A page's next_cursor: a string, or null (or absent) on the last page.
      return v === undefined || v === null || typeof v === 'string';
  }
}

const KIND_WORDS: Record<Kind, string> = { string: 'string', integer: 'integer', boolean: 'boolean', object: 'object', array: 'array', cursor: 'string or null' };

/** An object with these fields of these kinds (the field names are checked against T). */
function fields<T>(want: { readonly [K in keyof T]?: Kind }): Shape {
  const entries = Object.entries(want) as [string, Kind][];
  return (body) => {
    if (!isObject(body)) return body === undefined ? 'no body' : 'not a JSON object';
    for (const [name, kind] of entries) if (!fits(body[name], kind)) return kind === 'cursor' ? `"${name}" is not a ${KIND_WORDS[kind]}` : `no ${KIND_WORDS[kind]} "${name}"`;
    return null;
  };
}

/** Routes that answer 204: any body at all is someone else's answer. */
export const NO_CONTENT: Shape = (body) => (body === undefined ? null : 'a body where Loam answers 204 No Content');

export const SHAPES = {
  namespace: fields<Namespace>({ name: 'string', id: 'integer' }),
  collection: fields<Collection>({ name: 'string', id: 'integer', primary_key: 'string' }),
  page: fields<Page<unknown>>({ items: 'array', next_cursor: 'cursor' }),
  write: fields<WriteResult>({ token: 'string' }),
  queryPage: fields<QueryPage>({ documents: 'array', next_cursor: 'cursor' }),
  erase: fields<EraseResult>({ token: 'string', erasure: 'object' }),
  erasure: fields<Erasure>({ id: 'string', phase: 'string' }),
  erasureList: fields<ErasureList>({ items: 'array' }),
  erasureVerification: fields<ErasureVerification>({ verified: 'boolean', erasure: 'object' }),
  namespaceKey: fields<NamespaceKey>({ namespace: 'string', encrypted: 'boolean', state: 'string' }),
  org: fields<Org>({ id: 'string' }),
  createdKey: fields<CreatedKey>({ key: 'string', keyId: 'string' }),
  binding: fields<Binding>({ subject: 'string', role: 'string' }),
  quotas: fields<Quotas>({ defaults: 'object', effective: 'object' }),
  orgList: fields<OrgList>({ items: 'array' }),
  createdOrg: fields<CreatedOrg>({ id: 'string', admin_key: 'string' }),
  orgQuotaSet: fields<OrgQuotaSet>({ org: 'string', name: 'string' }),
  placement: fields<Placement>({ namespace: 'object', view: 'object', nodes: 'array', keys: 'array' }),
  usage: fields<Usage>({ items: 'array' }),
} as const;

/**
 * A document read by primary key: a JSON object holding that key as one of its top-level
 * values (the primary key is a top-level field; a number key matches its string form).
 */
export function documentWithId(id: string | number): Shape {
  const asNumber = typeof id === 'number' ? id : Number(id);
  return (body) => {
    if (!isObject(body)) return body === undefined ? 'no body' : 'not a JSON object';
    for (const k in body) {
      const v = body[k];
      if (v === id || (typeof v === 'string' && v === String(id)) || (typeof v === 'number' && (String(v) === String(id) || v === asNumber))) return null;
    }
    return `no field holds the primary key ${JSON.stringify(id)}`;
  };
}

/** Characters of a body that is not Loam's kept in an error's message (one line). */
export const MAX_ERROR_LINE_CHARS = 200;

/** A body as one short line: whitespace runs and control characters (a terminal's escapes) become one space. */
export function oneLine(text: string, max = MAX_ERROR_LINE_CHARS): string {
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The message for an answer that is not Loam's: its status, the request, its content type, and its body on one line. */
export function notLoamAnswer(status: number, request: string, contentType: string | null, text: string): string {
  const type = contentType?.split(';')[0]?.trim() || 'no content type';
  const body = oneLine(text);
  return `HTTP ${status} from ${request}: not a Loam answer (${type})${body ? `: ${body}` : ''}`;
}
