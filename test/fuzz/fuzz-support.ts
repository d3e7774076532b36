/**
 * Shared pieces of the property-based API tests: the route catalog read from the service's own
 * OpenAPI document (so a new route is fuzzed without touching these files), a request helper
 * that turns a request not answered within 5 s into a failure (a hang), the response invariants
 * (never 5xx; every 4xx is `{"status": "NG", "message", "errors"?}`), arbitraries for bodies,
 * query strings, path segments and headers, and the guard that keeps every generated URL off the
 * internet.
 */
import { randomBytes } from 'node:crypto';
import {
  adminTokenFingerprint,
  csrfTokenOf,
  hashSecret,
  apiKeyPrefix,
  hashApiKey,
} from '../../src/usecases/index.js';
import { connect } from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { systemClock } from '../../src/util/index.js';
import {
  DEMO_TENANT,
  type InjectResult,
  TEST_ADMIN_TOKEN,
  TEST_API_KEY,
  type TestService,
} from '../support/service-harness.js';

/** A request the service has not answered within this long is a hang. */
export const REQUEST_TIMEOUT_MS = 5_000;

/** The fixed seed of every property (override with KUMO_FUZZ_SEED to explore further). */
export const FUZZ_SEED = Number(process.env.KUMO_FUZZ_SEED ?? 20261123);
/** Scales every property's numRuns (KUMO_FUZZ_RUNS_SCALE=10 for a long local session). */
const RUNS_SCALE = Number(process.env.KUMO_FUZZ_RUNS_SCALE ?? 1);

/** fc.assert options: fixed seed, bounded runs, and a time budget that also bounds shrinking. */
export function fuzzParameters<T>(numRuns: number, timeLimitMs = 25_000): fc.Parameters<T> {
  return {
    seed: FUZZ_SEED,
    numRuns: Math.max(1, Math.round(numRuns * RUNS_SCALE)),
    interruptAfterTimeLimit: timeLimitMs * Math.max(1, RUNS_SCALE),
    markInterruptAsFailure: false,
    includeErrorInReport: true,
  };
}

// ---------------------------------------------------------------- the route catalog

/** The JSON Schema subset the OpenAPI 3.0 document uses. */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  $ref?: string;
}

export interface RouteSpec {
  method: string;
  /** The OpenAPI path, `{name}` for each path parameter. */
  template: string;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; schema: JsonSchema }[];
  bodySchema: JsonSchema | undefined;
  /** Takes `Authorization: Bearer <admin token>` (management API). */
  admin: boolean;
  /** Takes `x-mf-apikey` (instant crawl API and instant downloads). */
  apiKey: boolean;
  /** Takes only a console session (the signed-in account's own routes). */
  session: boolean;
  /** Takes only the operator's console session (its own routes). */
  operator: boolean;
}

interface OpenApiParameter {
  in: string;
  name: string;
  schema?: JsonSchema;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, unknown>[];
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);

/** Every operation of the OpenAPI document the service serves at /docs/json. */
export async function loadRouteCatalog(kumo: TestService): Promise<RouteSpec[]> {
  const answer = await send(kumo, { method: 'GET', url: '/docs/json' });
  if (answer.statusCode !== 200) throw new Error(`/docs/json answered ${answer.statusCode}`);
  const document = answer.json as OpenApiDocument;
  const definitions = document.components?.schemas ?? {};
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined => {
    if (schema?.$ref === undefined) return schema;
    return definitions[schema.$ref.replace('#/components/schemas/', '')];
  };
  const routes: RouteSpec[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method)) continue;
      const parameters = operation.parameters ?? [];
      const of = (where: string) =>
        parameters
          .filter((parameter) => parameter.in === where)
          .map((parameter) => ({ name: parameter.name, schema: resolve(parameter.schema) ?? {} }));
      routes.push({
        method: method.toUpperCase(),
        template,
        pathParams: of('path'),
        queryParams: of('query'),
        bodySchema: resolve(operation.requestBody?.content?.['application/json']?.schema),
        admin: (operation.security ?? []).some((scheme) => 'adminToken' in scheme),
        session:
          (operation.security ?? []).some((scheme) => 'sessionCookie' in scheme) &&
          !(operation.security ?? []).some((scheme) => 'adminToken' in scheme),
        apiKey: of('header').some((parameter) => parameter.name === 'x-mf-apikey'),
        operator:
          (operation.security ?? []).length > 0 &&
          (operation.security ?? []).every((scheme) => 'operatorCookie' in scheme),
      });
    }
  }
  return routes;
}

export const routeName = (route: RouteSpec): string => `${route.method} ${route.template}`;

/** The template with each `{name}` replaced (values are inserted as given: already URL text). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => values[name] ?? '1');
}

// ---------------------------------------------------------------- fixtures: ids that exist

/**
 * Path parameter values that name existing resources, so that fuzzed requests reach the
 * handlers rather than stopping at a 404. DELETE routes get their own victims so that they do
 * not remove the resources the other requests use.
 */
export interface FixtureIds {
  good: Record<string, string>;
  /** Values for DELETE routes (a second webhook, setting, API key). */
  victims: Record<string, string>;
}

/** Path values of a route: the existing resources, with `overrides` on top. */
export function goodPath(route: RouteSpec, ids: FixtureIds, overrides: Record<string, string> = {}): string {
  const values: Record<string, string> = { ...ids.good };
  if (route.method === 'DELETE') Object.assign(values, ids.victims);
  for (const parameter of route.pathParams) {
    if (values[parameter.name] !== undefined) continue;
    const choices = constantsOf(parameter.schema);
    values[parameter.name] = choices.length > 0 ? String(choices[0]) : '1';
  }
  return fillTemplate(route.template, { ...values, ...overrides });
}

/** The constants a schema allows (`enum`, `const`, unions of them); [] when it is not such a schema. */
export function constantsOf(schema: JsonSchema): unknown[] {
  if (schema.enum) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.flatMap(constantsOf);
  return [];
}

/**
 * Keeps the demo tenant's API key usable: a fuzzed DELETE of an API key may revoke the bootstrap
 * key (ids such as `1` or `1e0` are generated), after which a fresh key is inserted in the store.
 */
export class DemoKey {
  private key = TEST_API_KEY;

  constructor(private readonly kumo: TestService) {}

  async current(): Promise<string> {
    const store = this.kumo.service.store;
    if (await store.apiKeys.findActiveByHash(hashApiKey(this.key))) return this.key;
    this.key = `kumo_fuzz_${randomBytes(16).toString('hex')}`;
    await store.apiKeys.insert(
      DEMO_TENANT,
      hashApiKey(this.key),
      apiKeyPrefix(this.key),
      'fuzz',
      systemClock.nowMicros(),
    );
    return this.key;
  }

  /**
   * A console session of an owner of the demo contract, made in the store: the cookie, its CSRF
   * token and the service's Origin. A fuzzed sign-out or password change ends it; a new one is
   * made then.
   */
  async sessionHeaders(): Promise<Record<string, string>> {
    const store = this.kumo.service.store;
    const now = systemClock.nowMicros();
    const live =
      this.sessionSecret !== undefined && (await store.sessions.findByHash(hashSecret(this.sessionSecret)));
    if (!live || live.revokedMicros !== null) {
      let account = await store.accounts.findByEmail('fuzz-owner@example.com');
      if (account === undefined) {
        const invitation = await store.accounts.createInvitation(
          {
            contractId: 1,
            email: 'fuzz-owner@example.com',
            role: 'owner',
            createdMicros: now,
            expiresMicros: now + 1e12,
          },
          hashSecret(randomBytes(32).toString('base64url')),
        );
        account = (await store.accounts.acceptInvitation(invitation.id, 'scrypt$16$1$1$AA$AA', now))!;
      }
      this.sessionSecret = randomBytes(32).toString('base64url');
      await store.sessions.create(
        {
          accountId: account.id,
          createdMicros: now,
          lastSeenMicros: now,
          expiresMicros: now + 3.6e9 * 12,
          userAgent: 'fuzz',
          address: '127.0.0.1',
        },
        hashSecret(this.sessionSecret),
      );
    }
    return {
      cookie: `kumo_session=${this.sessionSecret}`,
      'x-kumo-csrf-token': csrfTokenOf(this.sessionSecret!),
      origin: this.kumo.url,
    };
  }

  private sessionSecret: string | undefined;

  /** The operator's console session, made in the store (a fuzzed sign-out ends it: a new one then). */
  async operatorHeaders(): Promise<Record<string, string>> {
    const store = this.kumo.service.store;
    const now = systemClock.nowMicros();
    const live =
      this.operatorSecret !== undefined &&
      (await store.operatorSessions.findByHash(hashSecret(this.operatorSecret)));
    if (!live || live.revokedMicros !== null) {
      this.operatorSecret = randomBytes(32).toString('base64url');
      await store.operatorSessions.create(
        {
          createdMicros: now,
          lastSeenMicros: now,
          expiresMicros: now + 3.6e9 * 12,
          userAgent: 'fuzz',
          address: '127.0.0.1',
          tokenFingerprint: adminTokenFingerprint(TEST_ADMIN_TOKEN),
        },
        hashSecret(this.operatorSecret),
      );
    }
    return {
      cookie: `kumo_operator=${this.operatorSecret}`,
      'x-kumo-csrf-token': csrfTokenOf(this.operatorSecret!),
      origin: this.kumo.url,
    };
  }

  private operatorSecret: string | undefined;
}

/** The credentials a route takes, valid. */
export async function authHeaders(route: RouteSpec, key: DemoKey): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (route.admin) headers.authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
  if (route.apiKey) headers['x-mf-apikey'] = await key.current();
  if (route.session) Object.assign(headers, await key.sessionHeaders());
  if (route.operator) Object.assign(headers, await key.operatorHeaders());
  return headers;
}

// ---------------------------------------------------------------- sending and checking

export interface SentRequest {
  method: string;
  url: string;
  headers?: Record<string, string | string[]>;
  payload?: string | Buffer;
}

/** `kumo.inject`, failing when no answer comes within REQUEST_TIMEOUT_MS. */
export async function send(
  kumo: Pick<TestService, 'inject'>,
  request: SentRequest,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<InjectResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`HANG: no answer within ${timeoutMs} ms to ${describeRequest(request)}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([kumo.inject(request as InjectOptions), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function describeRequest(request: SentRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : ` payload(${request.payload.length})=${JSON.stringify(String(request.payload).slice(0, 300))}`;
  return `${request.method} ${request.url.slice(0, 500)} headers=${JSON.stringify(request.headers ?? {}).slice(0, 500)}${payload}`;
}

/** A response as far as the invariants are concerned (inject's, or one read off a socket). */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * Answers let through as a known defect while it is being fixed (none today): an entry names the
 * defect and matches its exact answer, so the fuzz keeps looking for other problems meanwhile.
 */
export const KNOWN_DEFECTS: { name: string; matches: (answer: Answer) => boolean }[] = [];

/** Counts of responses let through as a known defect, by defect name (printed after the run). */
export const toleratedDefects = new Map<string, number>();

export function knownDefectOf(answer: Answer): string | undefined {
  return KNOWN_DEFECTS.find((defect) => defect.matches(answer))?.name;
}

/** What is wrong with the NG body of a 4xx, or undefined when it is one. */
export function ngBodyProblem(answer: Answer): string | undefined {
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) return `content-type is "${contentType}", not JSON`;
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return 'body is not JSON';
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'body is not an object';
  const body = json as Record<string, unknown>;
  if (body.status !== 'NG') return `status is ${JSON.stringify(body.status)}, not "NG"`;
  if (typeof body.message !== 'string' || body.message === '') return 'message is not a non-empty string';
  const extra = Object.keys(body).filter((key) => !['status', 'message', 'errors'].includes(key));
  if (extra.length > 0) return `unexpected members ${extra.join(', ')}`;
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors)) return 'errors is not an array';
    for (const error of body.errors as unknown[]) {
      const entry = error as Record<string, unknown> | null;
      if (typeof entry !== 'object' || entry === null) return 'an errors entry is not an object';
      if (typeof entry.field !== 'string' || entry.field === '') return 'an errors[].field is not a string';
      if (typeof entry.reason !== 'string' || entry.reason === '')
        return 'an errors[].reason is not a string';
    }
  }
  return undefined;
}

/**
 * The invariants of every answer: no 5xx (a 503 of an unavailable store included: the store is
 * healthy throughout), every 4xx carries the NG body (HEAD answers carry no body), and every
 * answer carries X-Request-ID.
 */
export function checkAnswer(request: SentRequest, answer: Answer): void {
  const where = () =>
    `\n  request: ${describeRequest(request)}\n  answer: ${answer.statusCode} ${answer.body.slice(0, 600)}`;
  if (answer.statusCode >= 500) throw new Error(`5xx answer${where()}`);
  const defect = knownDefectOf(answer);
  if (defect !== undefined) {
    toleratedDefects.set(defect, (toleratedDefects.get(defect) ?? 0) + 1);
    return;
  }
  if (answer.headers['x-request-id'] === undefined) throw new Error(`answer without X-Request-ID${where()}`);
  if (answer.statusCode >= 400 && request.method !== 'HEAD') {
    const problem = ngBodyProblem(answer);
    if (problem !== undefined) throw new Error(`4xx without the NG body: ${problem}${where()}`);
  }
}

/**
 * Sends and checks; returns the answer for further checks. A HEAD answer has no body to tell a
 * known defect by, so a failing one is asked again as GET and let through when that answer is
 * a known defect.
 */
export async function sendChecked(kumo: TestService, request: SentRequest): Promise<InjectResult> {
  const answer = await send(kumo, request);
  try {
    checkAnswer(request, answer);
  } catch (error) {
    if (request.method !== 'HEAD') throw error;
    const twin = await send(kumo, { ...request, method: 'GET' });
    if (twin.statusCode !== answer.statusCode || knownDefectOf(twin) === undefined) throw error;
    checkAnswer({ ...request, method: 'GET' }, twin);
  }
  return answer;
}

/** health_check answers 200 OK, and the demo tenant can still use the instant crawl API. */
export async function assertHealthy(kumo: TestService, key: DemoKey): Promise<void> {
  const health = await send(kumo, { method: 'GET', url: '/api/v1.0/finder_service/health_check' });
  if (health.statusCode !== 200 || health.json?.status !== 'OK') {
    throw new Error(`health_check answered ${health.statusCode} ${health.body}`);
  }
  const statuses = await send(kumo, {
    method: 'GET',
    url: '/api/v1/contracts/1/servicegroups/1/crawler/statuses',
    headers: { 'x-mf-apikey': await key.current() },
  });
  if (statuses.statusCode !== 200)
    throw new Error(`statuses answered ${statuses.statusCode} ${statuses.body}`);
}

// ---------------------------------------------------------------- raw sockets

/**
 * Sends raw bytes to the listening service and reads the answer (the request should say
 * `Connection: close`). Used for what inject cannot send: raw non-ASCII bytes in the request line.
 */
export function rawHttp(port: number, bytes: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`HANG: no answer within ${REQUEST_TIMEOUT_MS} ms on a raw socket`));
    }, REQUEST_TIMEOUT_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      // A reset after the answer was written still leaves the answer readable.
      if (chunks.length === 0) {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseRawAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    socket.write(bytes);
  });
}

function parseRawAnswer(bytes: Buffer): Answer {
  const text = bytes.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`bad status line ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
  return { statusCode: Number(status[1]), headers, body: body.toString('utf8') };
}

function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------- keeping crawls off the internet

const SAFE_LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** The discard port: nothing listens there, so a fetch fails at once. */
export const CLOSED_PORT_URL = 'http://127.0.0.1:9/';

/** Whether fetching this URL stays on this machine and fails: loopback port 9, or a `.invalid` host. */
export function isSafeUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'invalid' || host.endsWith('.invalid')) return true;
  return SAFE_LOOPBACK_HOSTS.has(host) && url.port === '9';
}

/**
 * Rewrites every string of a generated body that the service could fetch (an absolute http(s)
 * URL) and that is not safe into the closed loopback port, keeping its path. Seeds, webhook
 * URLs and any other field are covered, since a mutation may move a value anywhere.
 */
export function neutralizeUrls(value: unknown): unknown {
  if (typeof value === 'string') return neutralizeUrl(value);
  if (Array.isArray(value)) return value.map(neutralizeUrls);
  if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: neutralizeUrls(member),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

function neutralizeUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return text;
  if (isSafeUrl(url)) return text;
  return `${CLOSED_PORT_URL}${url.pathname.slice(1)}${url.search}`;
}

// ---------------------------------------------------------------- JSON text with raw pieces

/** A piece of JSON text placed as is: numbers JSON.stringify cannot write (1e400), deep nesting. */
export class RawJson {
  constructor(readonly text: string) {}
  toString(): string {
    return `RawJson(${this.text.length > 80 ? `${this.text.slice(0, 80)}…` : this.text})`;
  }
}

/** JSON.stringify with RawJson pieces written raw. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text =
    JSON.stringify(value, (_key, member: unknown) =>
      member instanceof RawJson ? `\u0001RAW${raws.push(member.text) - 1}\u0001` : member,
    ) ?? 'null';
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_match, index: string) => raws[Number(index)] ?? 'null');
}

// ---------------------------------------------------------------- arbitraries: values

/** Strings of every kind: ASCII, any code point, graphemes, with lone surrogates. */
export const anyString = (maxLength = 24): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'binary-ascii', maxLength }),
    fc.constantFrom('\ud800', 'a\udc00b', '\u0000', '\ufeff', '\u2028\u2029', 'Ａ\u0301', '🐈‍⬛', ' ', ''),
  );

/** Numbers JavaScript and JSON disagree on or that sit on the edges of the schemas' ranges. */
export const extremeNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('1e-400'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('9007199254740993'),
    new RawJson('-0'),
    new RawJson('1E+2'),
    new RawJson('0.1e1'),
    2 ** 53,
    2 ** 53 - 1,
    -(2 ** 53),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -1,
    0,
    1.5,
    2 ** 31,
    2 ** 32,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Long strings (up to a few hundred KB; the body limit is 1 MiB). */
export const longString: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 200, max: 300_000 }), fc.constantFrom('a', 'あ', '🐈', '\\', '"', '%', ' '))
  .map(([length, unit]) => unit.repeat(length));

/** Deeply nested arrays or objects, as raw JSON text. */
export const deepNesting: fc.Arbitrary<RawJson> = fc
  .tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
      : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );

/** Any JSON value, extreme ones included. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }) },
  { weight: 2, arbitrary: extremeNumber },
  { weight: 2, arbitrary: anyString() },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, '', '1', 'null', [null], { '': 1 }) },
);

/** URLs a generated body may carry: loopback port 9, `.invalid` hosts, and ones the service must refuse. */
export const fuzzUrl: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    CLOSED_PORT_URL,
    'http://127.0.0.1:9/a?b=c#d',
    'https://127.0.0.1:9/',
    'http://[::1]:9/',
    'http://localhost:9/x',
    'http://a.example.invalid/',
    'https://xn--r8jz45g.example.invalid/パス?q=検索',
    'http://user:pass@a.example.invalid/',
    'ftp://a.example.invalid/',
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    '//a.example.invalid/',
    '/relative',
    'http://',
    'http://%zz.example.invalid/',
    'http://a.example.invalid:99999/',
    'HTTP://A.EXAMPLE.INVALID/',
    'http://a.example.invalid/\u0000',
    'http://a.example.invalid/\r\nX-Injected: 1',
  ),
  fc
    .tuple(fc.constantFrom('http', 'https'), fc.webSegment(), fc.webQueryParameters())
    .map(([scheme, segment, query]) => `${scheme}://fuzz.example.invalid/${segment}?${query}`),
  anyString(),
);

/** Regular expressions, valid and not, catastrophic-looking ones included. */
export const fuzzPattern: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '^https?://127\\.0\\.0\\.1(:9)?/',
    '.*',
    '',
    '(',
    '[',
    '*',
    '\\',
    '(?<n>a)\\k<n>',
    '(?<n>a)(?<n>b)',
    '\\p{L}+',
    '(a+)+$',
    '[\\d-z]',
    '(?=a)',
    '/news/',
    'a{2,1}',
    '\\u{110000}',
  ),
  anyString(12),
);

/** Origins for allowed_origins, valid and not. */
export const fuzzOrigin: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'https://www.example.com',
    'https://www.example.com/',
    'http://127.0.0.1:8080',
    'null',
    '*',
    'https://www.example.com/path',
    'https://例え.jp',
  ),
  anyString(12),
);

const TIME_ZONES = [
  'Asia/Tokyo',
  'UTC',
  'America/New_York',
  'Etc/GMT+12',
  'Mars/Olympus',
  '',
  'asia/tokyo',
  '+09:00',
];

/** Values the service accepts, for the members whose name says what they hold. */
const VALID_BY_NAME: Record<string, fc.Arbitrary<string>> = {
  url: fc.oneof(
    fc.constantFrom(
      CLOSED_PORT_URL,
      'http://127.0.0.1:9/a?b=c#d',
      'https://127.0.0.1:9/',
      'http://[::1]:9/',
      'http://a.example.invalid/',
      'https://xn--r8jz45g.example.invalid/パス?q=検索',
      'HTTP://A.EXAMPLE.INVALID/',
    ),
    fc
      .tuple(fc.constantFrom('http', 'https'), fc.webSegment(), fc.webQueryParameters())
      .map(([scheme, segment, query]) => `${scheme}://fuzz.example.invalid/${segment}?${query}`),
  ),
  pattern: fc.oneof(
    fc.constantFrom(
      '^https?://127\\.0\\.0\\.1(:9)?/',
      '.*',
      '(?<n>a)\\k<n>',
      '/news/',
      '[\\d-z]',
      '京都|東京',
    ),
    fc.string({ unit: fc.constantFrom(...'abcxyz019/._-'), minLength: 1, maxLength: 12 }),
  ),
  origin: fc.constantFrom('https://www.example.com', 'https://www.example.com/', 'http://127.0.0.1:8080'),
  timezone: fc.constantFrom('Asia/Tokyo', 'UTC', 'America/New_York', 'Etc/GMT+12'),
  language: fc.constantFrom('ja,en;q=0.8', 'en', '*'),
  version: fc.constant('1'),
  path: fc.constantFrom('Docs\tGuide', '$1', '$1\t$9', 'News'),
  secret: fc.string({ minLength: 16, maxLength: 40 }),
};

/** The kind of value a member holds, from its name. */
function kindOf(name: string): string | undefined {
  if (/url$/.test(name) || name === 'seed_urls') return 'url';
  if (/pattern/.test(name)) return 'pattern';
  if (name === 'allowed_origins') return 'origin';
  return name in VALID_BY_NAME ? name : undefined;
}

/** Values of each kind that the service must refuse or handle with care. */
const FUZZ_BY_KIND: Record<string, fc.Arbitrary<string>> = {
  url: fuzzUrl,
  pattern: fuzzPattern,
  origin: fuzzOrigin,
  timezone: fc.constantFrom(...TIME_ZONES),
  language: fc.constantFrom('ja,en;q=0.8', 'en', '*', 'ja\r\n', 'a"b'),
  version: fc.constantFrom('1', '2', ''),
  path: fc.constantFrom('Docs\tGuide', '$1', '\t', 'a\t\tb', '$1\t$9', '$0', '$10'),
  secret: fc.string({ minLength: 10, maxLength: 300 }),
};

/**
 * A string for a schema. `valid`: one the service accepts (the member's name says what it holds);
 * otherwise mostly meaningful values with odd ones among them.
 */
function stringFor(name: string, schema: JsonSchema, valid: boolean): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 64, min + 40);
  const kind = kindOf(name);
  if (valid) {
    if (kind !== undefined)
      return (VALID_BY_NAME[kind] as fc.Arbitrary<string>).filter((text) => text.length >= min);
    return fc
      .oneof(
        fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, 1) }),
        fc.string({ unit: 'grapheme', minLength: Math.max(min, 1), maxLength: Math.max(max, 1) }),
      )
      .filter((text) => text.trim() !== '');
  }
  const plain = fc.oneof(
    fc.string({ minLength: min, maxLength: max }),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
  );
  if (kind === undefined) return plain;
  return fc.oneof({ weight: 4, arbitrary: FUZZ_BY_KIND[kind] as fc.Arbitrary<string> }, plain);
}

function numberFor(schema: JsonSchema, integer: boolean, valid: boolean): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -1_000_000, -(2 ** 53 - 1));
  const max = Math.min(schema.maximum ?? 1_000_000, 2 ** 53 - 1);
  if (integer) {
    // Small values most of the time: ids of existing resources are small.
    const small = fc.integer({ min: Math.max(min, -3), max: Math.min(max, Math.max(min, -3) + 8) });
    return fc.oneof(
      { weight: valid ? 12 : 3, arbitrary: small },
      fc.integer({ min, max }),
      fc.constantFrom(min, max),
    );
  }
  return fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));
}

/**
 * Values of the schema of an OpenAPI request body. `valid`: values the service accepts (most of
 * the time: the schema cannot say, say, which fields a schedule's interval needs), the starting
 * point of the mutations; otherwise values of the schema's shape whose strings are often odd.
 */
export function fromSchema(schema: JsonSchema, name = '', valid = false): fc.Arbitrary<unknown> {
  const constants = constantsOf(schema);
  if (constants.length > 0 && !(schema.anyOf ?? schema.oneOf)?.some((b) => b.type === 'object')) {
    return fc.constantFrom(...constants);
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => fromSchema(branch, name, valid)));
  const base = ((): fc.Arbitrary<unknown> => {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'object': {
        const properties = schema.properties ?? {};
        const shape: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, member] of Object.entries(properties)) shape[key] = fromSchema(member, key, valid);
        return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
      }
      case 'array':
        return fc.array(fromSchema(schema.items ?? {}, name, valid), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 3),
        });
      case 'string':
        return stringFor(name, schema, valid);
      case 'integer':
        return numberFor(schema, true, valid);
      case 'number':
        return numberFor(schema, false, valid);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        return anyJson;
    }
  })();
  return schema.nullable ? fc.oneof({ weight: valid ? 9 : 4, arbitrary: base }, fc.constant(null)) : base;
}

// ---------------------------------------------------------------- arbitraries: mutations

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'stringify'; at: number }
  | { kind: 'wrap'; at: number };

const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '',
    ' ',
    'setting',
    'seed_urls',
    'ｓｅｔｔｉｎｇ',
  ),
  anyString(12),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: anyJson }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.nat(), key: extraKey, value: anyJson }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stringify' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrap' as const), at: fc.nat() }) },
);

type Path = (string | number)[];

function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((member, index) => pathsOf(member, [...at, index], out));
  else if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    for (const [key, member] of Object.entries(value)) pathsOf(member, [...at, key], out);
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so that "__proto__" becomes an own member that JSON.stringify writes.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies a mutation to a copy of a JSON tree (`at` picks the node, modulo the node count). */
export function mutate(value: unknown, change: Mutation): unknown {
  const root = structuredCloneJson(value);
  const paths = pathsOf(root);
  const path = paths[change.at % paths.length] ?? [];
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1];
  const nodeAt = (p: Path): unknown =>
    p.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
  const replaceAt = (replacement: unknown): unknown => {
    if (last === undefined) return replacement;
    (nodeAt(parentPath) as Record<string | number, unknown>)[last] = replacement;
    return root;
  };
  const node = nodeAt(path);
  switch (change.kind) {
    case 'replace':
      return replaceAt(change.value);
    case 'add': {
      if (node !== null && typeof node === 'object' && !Array.isArray(node) && !(node instanceof RawJson)) {
        setOwn(node as Record<string, unknown>, change.key, change.value);
        return root;
      }
      if (Array.isArray(node)) {
        node.push(change.value);
        return root;
      }
      return replaceAt({ [change.key]: change.value });
    }
    case 'delete': {
      if (last === undefined) return undefined;
      const parent = nodeAt(parentPath);
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete (parent as Record<string, unknown>)[String(last)];
      return root;
    }
    case 'stringify':
      return replaceAt(node instanceof RawJson ? node.text : (JSON.stringify(node) ?? 'undefined'));
    case 'wrap':
      return replaceAt([node]);
  }
}

function structuredCloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCloneJson);
  if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) setOwn(copy, key, structuredCloneJson(member));
    return copy;
  }
  return value;
}

// ---------------------------------------------------------------- arbitraries: URL text

const hexByte = fc
  .integer({ min: 0, max: 255 })
  .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`);

/** Pieces of query text a client may send, broken escapes included. */
const junkToken = fc.constantFrom(
  '%E3%81',
  '%ZZ',
  '%',
  '%%',
  '%0',
  '%G1',
  '%00',
  '%FF%FE',
  '%C0%AF',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%E4%BA%AC%E9%83%BD',
  '%8B%9E%93%73',
  '%1B%24B',
  '+',
  '=',
  '==',
  '&',
  ';',
  ',',
  '..',
  '%2C',
  '%0A',
  '%09',
  '%0D%0A',
  '%2B',
  '%26',
  '%3D',
  '%23',
  '[]',
  '[0]',
  '__proto__',
  'constructor',
  '-1',
  '0',
  '1e3',
  '9007199254740993',
  'NaN',
  'Infinity',
  '1.5',
  '%201',
  'true',
);

/** Words the seeded search index holds, and query syntax. */
const searchWords = fc.constantFrom(
  '京都',
  '東京都',
  '検索',
  'ｶﾀｶﾅ',
  'python',
  'ＰＹＴＨＯＮ',
  'search+engine',
  '%22search+engine%22',
  '-engine',
  'a+OR+b',
  'OR',
  '-',
  '%22',
  'needlework',
  'sitewide',
  'quarterly',
  'Docs%09Guide',
  'www.example.com',
);

const datetimeText = fc.constantFrom(
  '2026-01-01T00:00:00%2B09:00',
  '2026-01-01T00:00:00+09:00',
  '2026-01-01T00:00:00-05:00',
  '2000-01-01T00:00:00%2B00:00',
  '2100-01-01T00:00:00%2B00:00',
  '2026-13-45T99:99:99%2B99:99',
  '0000-00-00T00:00:00%2B00:00',
  '9999-12-31T23:59:59-23:59',
  '275760-09-13T00:00:00%2B00:00',
  '2026-01-01T00:00:00Z',
  '2026-01-01',
  '2026-02-30T00:00:00%2B00:00',
);

const queryKnownValue = fc.constantFrom(
  'utf8',
  'sjis',
  'jis',
  'euc-jp',
  'euc-kr',
  'iso-8859-1',
  'utf-16',
  'cb',
  'jQuery123_4',
  'app.search.done',
  'a..b',
  '1abc',
  'alert(1)',
  'score',
  'score%20asc',
  'last_modified%20desc,title',
  'click%20up',
  'score,score',
  'all',
  'html,pdf',
  'doc,unknown',
  'News',
  'https%3A%2F%2Fwww.example.com%2Ftravel%2Fkyoto.html',
  'https://www.example.com/travel/kyoto.html',
  'http://127.0.0.1:9/',
  '1,2,3',
  '1,,2',
  ',',
  '0',
  '100',
  '101',
  '10000',
  '10001',
  '200',
  '201',
  'url_list.csv.gz',
);

/** A query value as URL text (inject percent-encodes what a URL cannot hold raw). */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(hexByte, junkToken, fc.string({ maxLength: 3 })), { maxLength: 8 })
      .map((parts) => parts.join('')),
  },
  { weight: 2, arbitrary: queryKnownValue },
  { weight: 2, arbitrary: searchWords },
  { weight: 1, arbitrary: datetimeText },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.nat().map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 12_000 }).map((length) => 'q'.repeat(length)) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 200 })
      .map((count) => Array.from({ length: count }, (_v, i) => i + 1).join(',')),
  },
);

/** A query string: names the route knows, names it does not, junk; repeated names included. */
export function queryString(known: readonly string[]): fc.Arbitrary<string> {
  const names = fc.oneof(
    { weight: known.length > 0 ? 5 : 0, arbitrary: fc.constantFrom(...(known.length > 0 ? known : ['q'])) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('callback', '_', 'utm_source', 'q', 'limit', 'expires', 'signature'),
    },
    { weight: 1, arbitrary: junkToken },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  const pair = fc.tuple(names, fc.option(queryValue, { freq: 6, nil: undefined }));
  return fc
    .tuple(fc.array(pair, { maxLength: 8 }), fc.boolean(), fc.constantFrom('&', '&', '&', '&&', ';'))
    .map(([pairs, repeatFirst, separator]) => {
      const all = repeatFirst && pairs[0] ? [...pairs, pairs[0]] : pairs;
      return all.map(([name, value]) => (value === undefined ? name : `${name}=${value}`)).join(separator);
    });
}

/** Path segments where an id belongs. */
export const idSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1e3',
      '1e0',
      '9007199254740993',
      '9007199254740992',
      '9007199254740991',
      '99999999999999999999999',
      '1e400',
      '%00',
      '%001',
      '１',
      '%EF%BC%91',
      '٣',
      '①',
      '1.0',
      '1.5',
      '01',
      '+1',
      '%2B1',
      '%201',
      '1%20',
      '0x1',
      '0b1',
      'NaN',
      'Infinity',
      '-0',
      'null',
      'true',
      '[1]',
      '1,2',
      '%2F',
      '%5C',
      '%2E%2E',
      '%3F',
      '%23',
      '%25',
      '%C0%AE',
      '__proto__',
      'constructor',
      'hasOwnProperty',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%E3%81', '%', 'x'.repeat(101), '1'.repeat(101)) },
  { weight: 2, arbitrary: fc.nat().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map(encodeURIComponent),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) },
);

// ---------------------------------------------------------------- arbitraries: headers

/** A character Node's HTTP parser lets into a header value: visible ASCII, space, tab, obs-text. */
const headerChar = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));

/** A header value as the server would see it (the parser trims surrounding blanks). */
export const headerValue: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ unit: headerChar, maxLength: 40 }) },
    // UTF-8 sent on the wire arrives as latin1 characters.
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: 'grapheme', maxLength: 10 })
        .map((text) => Buffer.from(text).toString('latin1')),
    },
    { weight: 1, arbitrary: fc.integer({ min: 201, max: 8_000 }).map((length) => 'k'.repeat(length)) },
    { weight: 1, arbitrary: fc.constantFrom('', ',', ', ,', ';', '*', '"', '\\', 'null', 'undefined') },
  )
  .map((value) => value.replace(/^[ \t]+|[ \t]+$/g, ''));

const mediaRange = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/*',
    '*/*',
    'text/html',
    'text/javascript',
    'application/javascript',
    'application/problem+json',
    'text/*',
    '*/json',
    '*',
    'application/json;charset=utf-8',
    'application/json;q=0',
    'application/json;q=0.001',
    'application/json;q=1.5',
    'application/json;q=abc',
    '*/*;q=0',
    'image/webp',
  ),
  headerValue,
);

export const acceptValue: fc.Arbitrary<string> = fc
  .array(mediaRange, { minLength: 1, maxLength: 4 })
  .map((ranges) => ranges.join(', '));

export const contentTypeValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'application/json; charset="',
    'APPLICATION/JSON',
    'application/json;;',
    'application/json, text/plain',
    'application/jsonp',
    'application/vnd.api+json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'multipart/form-data',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/octet-stream',
    '*/*',
    '',
  ),
  headerValue,
);

export function authorizationValue(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      `Bearer ${TEST_ADMIN_TOKEN}`,
      `bearer ${TEST_ADMIN_TOKEN}`,
      `BEARER\t${TEST_ADMIN_TOKEN}`,
      `Bearer  ${TEST_ADMIN_TOKEN}\t`,
      `Bearer ${TEST_ADMIN_TOKEN} x`,
      `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}`,
      `Bearer ${TEST_ADMIN_TOKEN}${TEST_ADMIN_TOKEN}`,
      `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}`,
      'Bearer',
      'Bearer ',
      'Bearer null',
      TEST_ADMIN_TOKEN,
    ),
    headerValue.map((value) => `Bearer ${value}`),
    headerValue,
  );
}

/** Stands for the demo tenant's current key in a generated header, resolved when the request is sent. */
export const CURRENT_KEY = '\u0000current-key';

export const apiKeyValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(CURRENT_KEY) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `${TEST_API_KEY}x`,
      TEST_API_KEY.toUpperCase(),
      `${TEST_API_KEY}, ${TEST_API_KEY}`,
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 250, max: 260 }).map((length) => 'k'.repeat(length)) },
  { weight: 3, arbitrary: headerValue },
);
