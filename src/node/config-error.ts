// A setting that is missing or out of range: its own module, so that the CLI can recognise one
// without loading the config's defaults (and with them every component's constants).

/** A setting that cannot be used, naming it and what to fix. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    why: string,
  ) {
    super(`configuration: ${setting} ${why}`);
    this.name = 'ConfigError';
  }
}
