/** A setting that cannot be used; its message names the setting (`KUMO_PORT: ...`). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
