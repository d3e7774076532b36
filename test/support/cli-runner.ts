/** Runs the compiled `kumo` CLI in a child process, as a user does. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { storeEnvOf } from './test-store.js';

export const MAIN_JS = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node main.js ...args` with `env` added to the environment (a variable set to undefined is
 * removed) in the folder `cwd` (default the test's); `.child` lets a test signal it. Fails the
 * test after `timeoutMs`.
 */
export function runCli(
  args: string[],
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<CliResult> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [MAIN_JS, ...args], {
    cwd,
    env: { ...process.env, KUMO_FETCH_TIMEOUT_SECONDS: '5', ...storeEnvOf(env.KUMO_DATA_DIR), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const result = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kumo ${args.join(' ')} did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return Object.assign(result, { child });
}
