/**
 * Entry of the thread that writes the checkpoints of the runs of this process and rebuilds the
 * work folders of the runs it takes (docs/design/scale-out.md, Run leases), one request at a time,
 * on a PostgreSQL connection of its own, so the API's event loop never waits for either.
 */
import { rm } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { openFileGroups } from '../blob/index.js';
import {
  connectPostgres,
  checkpointEntries,
  checkpointLinks,
  checkpointRows,
  saveRunCheckpoint,
} from '../store/postgres/index.js';
import { CheckpointMissingError, CheckpointReader, restoreRunData } from '../run-data/index.js';
import type {
  CheckpointAnswer,
  CheckpointRequest,
  CheckpointThreadData,
  RestoreAnswer,
  RestoreRequest,
} from './checkpoint-protocol.js';

const data = workerData as CheckpointThreadData;
const sql = connectPostgres(data.databaseUrl, { maxConnections: 1 });
const pieces = await openFileGroups('pieces', data.blobUrl, data.piecesRoot);

if (parentPort === null) throw new Error('checkpoint-thread.js runs as a worker thread only');
const port = parentPort;
let queue = Promise.resolve();
port.on('message', (request: CheckpointRequest | RestoreRequest) => {
  queue = queue.then(async () =>
    port.postMessage(request.type === 'save' ? await save(request) : await restore(request)),
  );
});

/**
 * Reads what the run store gained, a batch at a time into the checkpoint's transaction, stores
 * the page files as a piece before the commit, and commits if the lease is still this worker's.
 */
async function save(request: CheckpointRequest): Promise<CheckpointAnswer> {
  const { id, runId, owner, files, pieceName } = request;
  let reader: CheckpointReader | undefined;
  try {
    reader = new CheckpointReader(files, pieceName, request.marks);
    const batches = reader.batches(BATCH_SIZE);
    const first = batches.next();
    // Nothing new: no transaction at all.
    if (first.done === true) return { id, outcome: 'saved', marks: reader.result().marks };
    const opened = reader;
    const saved = await saveRunCheckpoint(sql, owner, runId, following(first.value, batches), async () => {
      if (opened.result().pieceBytes > 0) await pieces.save(runId, pieceName, files.piece);
    });
    if (!saved) return { id, outcome: 'lost' };
    return { id, outcome: 'saved', marks: reader.result().marks };
  } catch (error) {
    return { id, outcome: 'failed', message: messageOf(error) };
  } finally {
    reader?.close();
    await rm(files.piece, { force: true });
  }
}

async function restore(request: RestoreRequest): Promise<RestoreAnswer> {
  const { id, runId, files } = request;
  try {
    const marks = await restoreRunData(files, {
      entries: () => checkpointEntries(sql, runId),
      rows: () => checkpointRows(sql, runId),
      links: () => checkpointLinks(sql, runId),
      openPiece: (name) => pieces.open(runId, name),
    });
    return { id, outcome: 'restored', marks };
  } catch (error) {
    return {
      id,
      outcome: 'failed',
      message: messageOf(error),
      missing: error instanceof CheckpointMissingError,
    };
  }
}

/** The first batch, then the rest as they are read (never all of them in memory). */
function* following<T>(first: T, rest: Iterator<T>): Generator<T> {
  yield first;
  for (let next = rest.next(); next.done !== true; next = rest.next()) yield next.value;
}

/** Entries, rows or links read and written at a time: what a checkpoint holds in memory. */
const BATCH_SIZE = 5000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
