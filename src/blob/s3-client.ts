import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ConfigError } from '../config/index.js';

/**
 * The S3 client of KUMO_BLOB_URL, configured by the AWS SDK's own variables (docs/operations.md,
 * Object storage): AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL for an S3-compatible server, AWS_REGION,
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (else the SDK's other credential sources: profile,
 * container or instance role).
 */
export function s3ClientFromEnv(env: NodeJS.ProcessEnv): S3Client {
  quietNodeVersionNotice();
  return new S3Client(s3ClientConfig(env));
}

export function s3ClientConfig(env: NodeJS.ProcessEnv): S3ClientConfig {
  const endpointName =
    nonEmpty(env.AWS_ENDPOINT_URL_S3) !== undefined ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpoint = nonEmpty(env[endpointName]);
  if (endpoint !== undefined) checkEndpoint(endpoint, endpointName);
  // A server of its own answers for any region; the SDK still needs one to sign with.
  const region = nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? (endpoint && 'us-east-1');
  const accessKeyId = nonEmpty(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither');
  return {
    ...(region !== undefined && { region }),
    // MinIO and most S3-compatible servers address buckets by path, not by host name.
    ...(endpoint !== undefined && { endpoint, forcePathStyle: true }),
    ...(accessKeyId !== undefined &&
      secretAccessKey !== undefined && {
        credentials: { accessKeyId, secretAccessKey, sessionToken: nonEmpty(env.AWS_SESSION_TOKEN) },
      }),
  };
}

/**
 * On Node.js 20 every process creating its first client prints the SDK's notice that its later
 * releases will want Node.js 22, into Kumo's own output and every cluster process's log; the
 * project supports Node.js 20 as long as its dependencies do (docs/operations.md, Requirements),
 * so the notice tells an operator nothing to act on. The SDK reads this variable when the client
 * is created, and offers no client option for it; an operator who sets it keeps their value.
 */
function quietNodeVersionNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

function checkEndpoint(endpoint: string, name: string): void {
  let protocol: string;
  try {
    protocol = new URL(endpoint).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new ConfigError(`${name}: expected an http(s) URL, got "${endpoint}"`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
