import { REDACTED } from '../domain/index.js';

/**
 * What never reaches a log line, whoever logs it: credentials of requests (the management token,
 * API keys, cookies, Basic credentials) wherever a request or its headers are logged, and the
 * Basic passwords of crawler settings however deep a setting sits in the logged object (a setting,
 * a request body, a run record). Fastify's own request lines log method and URL only; these paths
 * keep that true when someone logs more.
 */
const HEADER_NAMES = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-mf-apikey'];
const HEADER_HOLDERS = ['req.headers', 'request.headers', 'res.headers', 'headers', '*.headers'];
const SETTING_PASSWORDS = [
  'authorizations[*].password',
  '*.authorizations[*].password',
  '*.*.authorizations[*].password',
  '*.*.*.authorizations[*].password',
];
const SECRET_MEMBERS = ['secret', '*.secret', 'password', '*.password', 'secretKey', 'adminToken', 'apiKey'];

export const SECRET_LOG_PATHS: readonly string[] = [
  ...HEADER_HOLDERS.flatMap((holder) => HEADER_NAMES.map((name) => `${holder}["${name}"]`)),
  ...SETTING_PASSWORDS,
  ...SECRET_MEMBERS,
];

/** The logger's redaction: the secret paths, each value replaced by the redaction mark. */
export const SECRET_REDACTION = { censor: REDACTED, paths: [...SECRET_LOG_PATHS] };
