/**
 * Why `raw` cannot be a URL Kumo sends requests to (a seed, a webhook): it must be absolute
 * http(s), without credentials in it. `credentialsAdvice` follows the credentials reason (where
 * they belong instead).
 */
export function httpUrlProblem(raw: string, credentialsAdvice = ''): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `scheme "${url.protocol}" is not http or https`;
  if (url.username !== '' || url.password !== '')
    return `credentials in the URL are not allowed${credentialsAdvice}`;
  return undefined;
}
