/**
 * Entry of the thread that writes the checkpoints of the runs of this process (docs/architecture.md,
 * Run leases), one at a time, on a PostgreSQL connection of its own: it reads what a run store
 * gained, stores the page files as a piece, then writes the rest in one transaction that checks
 * the lease.
 */
import { rm } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { openRunPieceStore } from '../blob/open-artifact-store.js';
import { connectPostgres } from '../store/postgres/pg-connection.js';
import { saveRunCheckpoint } from '../store/postgres/pg-run-leases.js';
import { readCheckpoint } from '../store/sqlite/run-checkpoint-reader.js';
import type { CheckpointAnswer, CheckpointRequest, CheckpointThreadData } from './checkpoint-protocol.js';

const data = workerData as CheckpointThreadData;
const sql = connectPostgres(data.databaseUrl, { maxConnections: 1 });
const pieces = openRunPieceStore(data.blobUrl, data.piecesRoot);

if (parentPort === null) throw new Error('checkpoint-thread.js runs as a worker thread only');
const port = parentPort;
let queue = Promise.resolve();
port.on('message', (request: CheckpointRequest) => {
  queue = queue.then(async () => port.postMessage(await save(request)));
});

async function save(request: CheckpointRequest): Promise<CheckpointAnswer> {
  const { id, runId, owner, files, pieceName } = request;
  try {
    const read = readCheckpoint(files, pieceName, request.marks);
    const { entries, rows, links } = read.checkpoint;
    if (entries.length === 0 && rows.length === 0 && links.length === 0)
      return { id, outcome: 'saved', marks: read.marks };
    if (read.pieceBytes > 0) await pieces.save(runId, pieceName, files.piece);
    if (!(await saveRunCheckpoint(sql, owner, runId, read.checkpoint))) return { id, outcome: 'lost' };
    return { id, outcome: 'saved', marks: read.marks };
  } catch (error) {
    return { id, outcome: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    await rm(files.piece, { force: true });
  }
}
