// LOAM_BOOTSTRAP_OPERATOR_KEY: the operator key `loam serve` installs at its first start
// instead of generating one. Read with the config (serve and config-check), so a malformed
// one stops the start before a metastore file or a key file is made. Its own module: the CLI
// reads it without loading the config's defaults.
import { ConfigError } from './config-error.js';
import { parseKey } from '../control/keys.js';

/** `loam serve` installs this key as the first operator key instead of generating one. */
export const OPERATOR_KEY_ENV = 'LOAM_BOOTSTRAP_OPERATOR_KEY';

/** The key given in the environment, or null; a malformed one is a ConfigError that never quotes it. */
export function bootstrapOperatorKey(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env[OPERATOR_KEY_ENV];
  if (given === undefined || given === '') return null;
  if (parseKey(given) === null) {
    throw new ConfigError(OPERATOR_KEY_ENV, 'must be loam_<key_id: 16 hex digits>_<secret: 64 hex digits>; the value is not shown');
  }
  return given;
}
