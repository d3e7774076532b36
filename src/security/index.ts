/**
 * Secrets: the secret box and key file, sealed setting passwords, and the redaction of secrets
 * from logs. (docs/design/layers.md, Surfaces)
 */
export { SECRET_REDACTION } from './log-redaction.js';
export { decodeSecretKey, SecretBox, SecretKeyMismatchError } from './secret-box.js';
export { loadSecretKey } from './secret-key-file.js';
export {
  checkSettingPasswords,
  plainPasswordCondition,
  sealedPasswordCondition,
  sealPlainPasswords,
  settingFromStoredJson,
  storedSettingJson,
} from './setting-secrets.js';
