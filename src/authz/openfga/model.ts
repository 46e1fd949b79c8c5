// The OpenFGA authorization model's versions (spec §7, after Lakekeeper's migration manager):
// each version of model.fga is written to the store once, and its model id recorded there as
// the tuple model_id:v<version>.<id> applied model_version:loam. A start uses the id recorded
// for MODEL_VERSION, writing the model first if no start did; a store whose recorded model is
// newer than this code's, or whose recorded model differs from model.fga, refuses the start.
import { readFileSync } from 'node:fs';
import { transformer } from '@openfga/syntax-transformer';
import { ClientWriteRequestOnDuplicateWrites, type AuthorizationModel, type OpenFgaClient, type WriteAuthorizationModelRequest } from '@openfga/sdk';

/** The version of model.fga this code expects. Any change to model.fga is a new version. */
export const MODEL_VERSION = 1;
export const MODEL_FILE = new URL('./model.fga', import.meta.url);
/** The object every version record hangs on. */
export const MODEL_RECORD_OBJECT = 'model_version:loam';
/** Version records read, at most (one per version ever written, and racing starts). */
export const MAX_MODEL_RECORDS = 1_000;

export class ModelVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelVersionError';
  }
}

/** model.fga as the API's JSON. */
export function modelRequest(dsl: string = readFileSync(MODEL_FILE, 'utf8')): WriteAuthorizationModelRequest {
  return transformer.transformDSLToJSONObject(dsl) as unknown as WriteAuthorizationModelRequest;
}

/** Drops empty fields and orders keys and types, so a stored model (the server sorts relations) compares with model.fga. */
function normal(v: unknown): unknown {
  if (Array.isArray(v)) {
    const xs = v.map(normal).filter((x) => x !== undefined);
    return xs.length ? xs : undefined;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = normal((v as Record<string, unknown>)[k]);
      if (x !== undefined) out[k] = x;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v === null || v === '' ? undefined : v;
}

/** A model in one canonical text, to compare what a store holds with model.fga. */
function canonical(m: Pick<AuthorizationModel, 'schema_version' | 'type_definitions' | 'conditions'>): string {
  const types = [...(m.type_definitions ?? [])].sort((a, b) => a.type.localeCompare(b.type));
  return JSON.stringify(normal({ schema_version: m.schema_version, type_definitions: types, conditions: m.conditions }));
}

interface VersionRecord {
  version: number;
  id: string;
}

async function records(client: OpenFgaClient): Promise<VersionRecord[]> {
  const out: VersionRecord[] = [];
  let token: string | undefined;
  do {
    const r = await client.read({ relation: 'applied', object: MODEL_RECORD_OBJECT }, { pageSize: 100, ...(token ? { continuationToken: token } : {}) });
    for (const t of r.tuples) {
      const m = /^model_id:v(\d+)\.(\S+)$/.exec(t.key.user);
      if (m) out.push({ version: Number(m[1]), id: m[2]! });
    }
    token = r.continuation_token || undefined;
  } while (token && out.length < MAX_MODEL_RECORDS);
  return out;
}

/** The model id for MODEL_VERSION in the client's store, written and recorded if no start did yet. */
export async function ensureModel(client: OpenFgaClient, store: string): Promise<string> {
  const ours = modelRequest();
  const pick = (rs: VersionRecord[]) => rs.filter((r) => r.version === MODEL_VERSION).map((r) => r.id).sort()[0];
  let rs = await records(client);
  const newest = Math.max(0, ...rs.map((r) => r.version));
  if (newest > MODEL_VERSION) {
    throw new ModelVersionError(
      `openfga: store "${store}" holds authorization model version ${newest}, newer than this Loam's version ${MODEL_VERSION}; run a Loam release whose model version is ${newest}`,
    );
  }
  let id = pick(rs);
  if (id === undefined) {
    const written = await client.writeAuthorizationModel(ours);
    await client.write(
      { writes: [{ user: `model_id:v${MODEL_VERSION}.${written.authorization_model_id}`, relation: 'applied', object: MODEL_RECORD_OBJECT }] },
      { authorizationModelId: written.authorization_model_id, conflict: { onDuplicateWrites: ClientWriteRequestOnDuplicateWrites.Ignore } },
    );
    // Starts racing each write a model; every one of them uses the smallest id recorded.
    rs = await records(client);
    id = pick(rs)!;
  }
  const stored = (await client.readAuthorizationModel({ authorizationModelId: id })).authorization_model;
  if (!stored || canonical(stored) !== canonical(ours as unknown as AuthorizationModel)) {
    throw new ModelVersionError(
      `openfga: store "${store}" records model ${id} as version ${MODEL_VERSION}, but it differs from this Loam's model version ${MODEL_VERSION} (src/authz/openfga/model.fga); a changed model needs a new MODEL_VERSION`,
    );
  }
  return id;
}
