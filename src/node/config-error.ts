// A setting that is missing or out of range: its own module, so that the CLI can recognise one
// without loading the config's defaults (and with them every component's constants).
import { redactUrl } from '../meta/url.js';

/**
 * A setting that cannot be used, naming it and what to fix. The message is printed: any URL in
 * it has its credentials masked here too, whatever the caller quoted.
 */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    why: string,
  ) {
    super(`configuration: ${setting} ${redactUrl(why)}`);
    this.name = 'ConfigError';
  }
}

/**
 * A listener's port held by another process, as the ConfigError of the setting to change (a
 * server has two listeners: its API's and /metrics). `env` is that setting's variable. For a
 * `.catch` on the listen; anything else is thrown on unchanged.
 */
export function portInUse(setting: string, env: string, host: string, port: number) {
  return (e: unknown): never => {
    // Node's EADDRINUSE, or grpc-js's bind failure (which carries no code).
    const inUse = (e as NodeJS.ErrnoException).code === 'EADDRINUSE' || /No address added out of total/.test((e as Error).message ?? '');
    if (!inUse) throw e;
    throw new ConfigError(setting, `${port} on ${host} is in use by another process (another node?): set ${setting} (${env}) to a free port, or 0 to pick one`);
  };
}
