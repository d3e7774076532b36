/**
 * Entry of the worker thread that executes crawl runs, one at a time (docs/design/crawl.md, Crawl
 * threads). It gets each run as a `start` message, resolves its setting, crawls with its own HTTP
 * client and run store, and reports progress, pages and the result by message: a pathological
 * page or pattern slows this thread only, never the thread answering the API. Everything a run
 * uses is made for it and let go before its result is sent, so the thread can take the next run.
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import { BrowserPool } from '../browser/index.js';
import { ChromiumRenderer } from '../browser/rendering.js';
import { createUndiciFetcher, PreviousAnswers, type PreviousRunFiles } from '../crawler/engine.js';
import { localMemberReader } from '../crawler/index.js';
import { resolveCrawlSettings } from '../domain/index.js';
import { AddressPolicy } from '../net/index.js';
import { fetchErrorKindOf } from '../observability/index.js';
import { type Clock, systemClock, idCounter } from '../util/index.js';
import { type CrawlExecution, executeCrawl } from './execute-crawl.js';
import { RemoteHostPace } from './pace-protocol.js';
import { RemoteBrowser } from './remote-browser.js';
import { RemoteMemberReader } from './remote-member-reader.js';
import type { FromRunThread, RunFailure, RunStart, ToRunThread } from './run-thread-protocol.js';
import { RunThreadReports } from './run-thread-reports.js';
import type { PaceAnswer } from './pace-protocol.js';

/** A run that rendered nothing for this long lets go of the browser, which may then close. */
const IDLE_DISCONNECT_MS = 60_000;

const port = threadPort();
const send = (message: FromRunThread) => port.postMessage(message);
// One numbering of requests over all the thread's runs: a late answer to an ended run's request
// matches nothing in the next run.
const requestIds = idCounter();

/** What one run uses of the thread: made at its start, let go before its result is sent. */
interface RunSession {
  cancel: AbortController;
  drain: AbortController;
  /** Undefined without a pace thread (`kumo crawl`): the run paces its hosts on its own. */
  pace: RemoteHostPace | undefined;
  browser: RemoteBrowser;
  remoteBundle: RemoteMemberReader;
  reports: RunThreadReports;
}

/** The run the thread is executing; undefined between runs (a late cancel then does nothing). */
let current: RunSession | undefined;

port.on('message', (message: ToRunThread) => {
  switch (message.type) {
    case 'start':
      void execute(message.run, message.pacePort);
      return;
    case 'cancel':
      current?.cancel.abort();
      return;
    case 'drain':
      current?.drain.abort();
      return;
    case 'bundle-part':
      current?.remoteBundle.answered(message);
      return;
    default:
      current?.browser.answered(message);
  }
});

/** The run's session, with the pace asked over the run's own port to the pace thread, if any. */
function sessionOf(pacePort: MessagePort | undefined): RunSession {
  return {
    cancel: new AbortController(),
    drain: new AbortController(),
    pace: pacePort && paceOver(pacePort),
    browser: new RemoteBrowser(send, requestIds),
    remoteBundle: new RemoteMemberReader(send, undefined, requestIds),
    reports: new RunThreadReports(send),
  };
}

function paceOver(pacePort: MessagePort): RemoteHostPace {
  const pace = new RemoteHostPace((request) => pacePort.postMessage(request));
  pacePort.on('message', (answer: PaceAnswer) => pace.granted(answer));
  pacePort.on('close', () => pace.lost(new Error('the host pace thread stopped')));
  return pace;
}

/**
 * Crawls the run and reports its result, or the failure of any step (resolving its setting
 * included). The pace port is closed first, which gives back anything still held for the run.
 */
async function execute(run: RunStart, pacePort: MessagePort | undefined): Promise<void> {
  const session = sessionOf(pacePort);
  current = session;
  let message: FromRunThread;
  try {
    message = { type: 'result', result: await crawl(run, session) };
  } catch (error) {
    message = { type: 'failed', failure: failureOf(error) };
  }
  session.reports.flush();
  session.remoteBundle.close();
  pacePort?.close();
  current = undefined;
  send(message);
}

async function crawl(run: RunStart, session: RunSession): Promise<CrawlExecution> {
  const { browser, remoteBundle, reports } = session;
  // A pattern RE2 cannot run (a setting stored before patterns ran on RE2) throws here, and the
  // run ends 2040 with the field and the reason.
  const resolved = resolveCrawlSettings(run.setting, { feedsSearch: run.feedsSearch });
  const settings = run.feedsSearch ? { ...resolved, collectObjects: true } : resolved;
  // The thread's own client and address policy: connections are not shared across threads.
  const addresses = new AddressPolicy(run.allowPrivateNetworks);
  const fetcher = createUndiciFetcher({ addresses });
  const clock: Clock = { nowMicros: () => systemClock.nowMicros() + run.clockOffsetMicros };
  const pool =
    run.browser &&
    new BrowserPool(
      // The pool only connects: the service launches the browser with its settings (sandbox, flags)
      // and holds the page slots.
      {
        executablePath: run.browser.executablePath,
        sandbox: false,
        pages: 1,
        idleCloseMs: IDLE_DISCONNECT_MS,
      },
      { launched: (version) => browser.versionSeen(version) },
      browser,
    );
  const renderer =
    pool &&
    run.browser &&
    new ChromiumRenderer(pool, addresses, {
      idleWaitMs: run.browser.idleWaitMs,
      pageTimeoutMs: run.browser.pageTimeoutMs,
    });
  // The setting's previous run: its pages are asked for conditionally (opening it never fails the
  // run: without it every page is fetched whole).
  const previous = run.previous && previousAnswersOf(run.previous, remoteBundle);
  try {
    return await executeCrawl(
      settings,
      run.workspace,
      {
        fetcher,
        clock,
        limits: run.limits,
        defaultUserAgent: run.defaultUserAgent,
        timezone: run.timezone,
        renderer,
        ...(session.pace && { pace: session.pace }),
        previous,
        observer: {
          pageFetched: (result, rendering) => reports.pageFetched(fetchErrorKindOf(result, rendering)),
        },
      },
      {
        cancelSignal: session.cancel.signal,
        drainSignal: session.drain.signal,
        deadlineMicros: run.deadlineMicros,
        onProgress: (progress) => reports.progressed(progress),
      },
      new Set(run.packagesOn),
      { pageOutcomes: run.pageOutcomes, writeReport: run.writeReport },
    );
  } finally {
    previous?.close();
    await Promise.all([fetcher.close(), pool?.close()]).catch(() => undefined);
  }
}

/**
 * The previous run's answers, its bundle read in place when it is a local file, else (object
 * storage) page by page through the service (bundle-part-protocol.ts).
 */
function previousAnswersOf(
  files: PreviousRunFiles,
  remoteBundle: RemoteMemberReader,
): PreviousAnswers | undefined {
  const bundle = files.bundleFile === undefined ? remoteBundle : localMemberReader(files.bundleFile);
  return bundle && PreviousAnswers.open(files.reportFile, bundle);
}

function failureOf(error: unknown): RunFailure {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' && { code }) };
}

function threadPort(): MessagePort {
  if (parentPort === null) throw new Error('run-thread.js runs as a worker thread only');
  return parentPort;
}
