/**
 * The service's configuration: loading and describing it, its roles and the data directory's
 * paths. (docs/design/layers.md, Surfaces)
 */
export type { BlobDownloads, BlobLocation } from './blob-config.js';
export { ConfigError } from './config-error.js';
export { debugRequested, describeSettings, type KumoConfig, loadConfig } from './config.js';
export { dataPaths, searchIndexFile } from './data-paths.js';
export { parseRoles, rolesText, takesEveryRole } from './roles.js';
