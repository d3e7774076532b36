/**
 * `node dist/bench/search-serve.js <data dir>`: the service of the HTTP part of bench:search in a
 * process of its own, so the load generator does not share its CPU time with the server's event
 * loop. Prints `{"url": ...}` once listening; stops when its stdin closes or on SIGTERM.
 */
import { startBenchService } from './search-service.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: search-serve <data dir>');
const running = await startBenchService(dataDir);
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void running.close().then(() => process.exit(0));
};
process.stdin.on('end', stop).on('error', stop).resume();
process.on('SIGTERM', stop);
