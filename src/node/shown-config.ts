// The settings as `loam config-check` prints them: no secret, and no URL's credentials. Its
// own module, so that the CLI shows a config without loading the config's defaults.
import type { NodeConfig } from './config.js';
import { redactUrl } from '../meta/url.js';

/** The settings whose values are URLs: each is printed with its credentials masked (src/meta/url.ts). */
export const URL_SETTINGS = ['metastore', 'store', 'openfga_url', 'kms_endpoint', 'advertise_url'] as const satisfies readonly (keyof NodeConfig)[];
/** The settings that are secrets: printed as (set) or null. */
export const SECRET_SETTINGS = ['erasure_kek', 'encryption_master_key'] as const satisfies readonly (keyof NodeConfig)[];

export function shownConfig(c: NodeConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c };
  for (const k of URL_SETTINGS) out[k] = c[k] === null ? null : redactUrl(c[k]);
  for (const k of SECRET_SETTINGS) out[k] = c[k] === null ? null : '(set)';
  return out;
}
