/**
 * Sends a flood of console sign-ins as an attack would, from a process of its own, so the test
 * that measures the service meanwhile is not slowed by the flood's own work:
 * `node sign-in-flooder.js <url> <addresses> <attempts per address> <ms between attempts>`.
 * Attempt n goes from loopback address 127.0.1.(n mod addresses + 1) with an unknown email
 * address, on schedule whatever the answers (an open loop). Prints one JSON line at the end:
 * `{"statuses": {"401": n, ...}, "retryAfters": [...]}` (Retry-After of each 429).
 */
import { Agent, fetch } from 'undici';

const [url, addressesText, attemptsText, everyText] = process.argv.slice(2);
const addresses = Number(addressesText);
const total = addresses * Number(attemptsText);
const everyMs = Number(everyText);

const agents = Array.from({ length: addresses }, (_, n) => new Agent({ localAddress: `127.0.1.${n + 1}` }));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function signIn(n: number): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(`${url}/admin/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `nobody-${n}@example.com`, password: 'not the password at all' }),
    dispatcher: agents[n % addresses]!,
  });
  await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

const started = performance.now();
const answers = await Promise.all(
  Array.from({ length: total }, async (_, n) => {
    await sleep(Math.max(0, started + n * everyMs - performance.now()));
    return signIn(n);
  }),
);
const statuses: Record<string, number> = {};
for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
const retryAfters = answers.filter(({ status }) => status === 429).map(({ retryAfter }) => retryAfter);
process.stdout.write(`${JSON.stringify({ statuses, retryAfters })}\n`);
await Promise.all(agents.map((agent) => agent.close()));
