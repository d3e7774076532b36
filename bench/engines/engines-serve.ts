/**
 * `node dist/bench/engines/engines-serve.js <data dir> <search service config as JSON>`: the
 * real Kumo service over the data directory, in a process of its own so that its memory can be
 * read alone and the load generator does not share its event loop. Started as bench:search's
 * server is (startBenchService), with search service 1 given the configuration (a category
 * per manual), so the answers carry facets of these pages. The configuration comes as an
 * argument so that this process loads nothing of the benchmark's corpus code, whose memory
 * would count as the service's. Prints `{"url": ...}` once listening; stops when its stdin
 * closes (also when the benchmark dies) or on SIGTERM.
 */
import { serveUntilStdinCloses, startBenchService } from '../search-service.js';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';

const [dataDir, configJson] = process.argv.slice(2);
if (dataDir === undefined || configJson === undefined)
  throw new Error('usage: engines-serve <data dir> <search service config as JSON>');
const config = JSON.parse(configJson) as SearchServiceConfig;
serveUntilStdinCloses(await startBenchService(dataDir, config));
