/**
 * `node dist/bench/search-serve.js <data dir>`: the service of the HTTP part of bench:search in a
 * process of its own, so the load generator does not share its CPU time with the server's event
 * loop. Prints `{"url": ...}` once listening; stops when its stdin closes or on SIGTERM.
 */
import { serveUntilStdinCloses, startBenchService } from './search-service.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: search-serve <data dir>');
const running = await startBenchService(dataDir);
serveUntilStdinCloses(running);
