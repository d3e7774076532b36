import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SearchIndexStore } from '../storage/search-index-store.js';
import { ITEMS_PER_PAUSE, type Work } from './work-slices.js';

const READER = fileURLToPath(new URL('./reading-worker.js', import.meta.url));
/** Phrases read by one worker at most; more wait for the next. */
const MAX_PHRASES_PER_WORKER = 50_000;
/** Only phrases written in kana and kanji are read (a Latin word has no reading to type). */
const READABLE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]+$/u;

/** One reading worker at a time in the process: each holds the dictionary (about 250 MB) while it runs. */
let workerQueue: Promise<unknown> = Promise.resolve();

/**
 * Readings (katakana) of the Japanese title and heading phrases suggest offers
 * (docs/reference/site-search.md, Suggest; docs/design/search-engine.md, Suggest readings). Phrases
 * read once are kept in the index file (`phrase_readings`) and looked up there one by one, so the
 * process never holds the table; a phrase not read yet is read by a
 * short-lived child process (reading-worker.ts), so the dictionary is never held while the service
 * only serves. Until its reading comes, a phrase is still offered for what it is written.
 */
export class PhraseReadings {
  /** Readings read and not yet in the file: looked up before the file. */
  private readonly unsaved = new Map<string, string>();
  private readonly asked = new Set<string>();
  private running: Promise<void> | undefined;
  /** Set when readings came since the last `take`: the suggester is then built again. */
  private fresh = false;

  constructor(
    private readonly store: SearchIndexStore,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /**
   * The known readings of `phrases` ('' left out); phrases never read are sent to be read. Work
   * in slices (work-slices.ts): a large index has hundreds of thousands of phrases.
   */
  *readingsOf(phrases: Iterable<string>): Work<Map<string, string>> {
    const readings = new Map<string, string>();
    const missing: string[] = [];
    let done = 0;
    for (const phrase of phrases) {
      if (++done % ITEMS_PER_PAUSE === 0) yield;
      if (!READABLE.test(phrase)) continue;
      const reading = this.unsaved.get(phrase) ?? this.store.phraseReading(phrase);
      if (reading === undefined) {
        if (!this.asked.has(phrase)) missing.push(phrase);
      } else if (reading !== '') {
        readings.set(phrase, reading);
      }
    }
    if (missing.length > 0) this.read(missing);
    return readings;
  }

  /** Whether readings came since the last call. */
  takeFresh(): boolean {
    const fresh = this.fresh;
    this.fresh = false;
    return fresh;
  }

  /** Waits for the phrases being read, if any; whether there were. */
  async settleIfRunning(): Promise<boolean> {
    if (this.running === undefined) return false;
    await this.settled();
    return true;
  }

  /** Resolves when no phrase is being read. */
  async settled(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** Writes readings that could not be written when they came (another writer held the file). */
  flush(): void {
    // Readings that come after the index was closed have no file to go to (a later open reads
    // the phrases again).
    if (this.unsaved.size === 0 || !this.store.open) return;
    try {
      this.store.withoutWaiting(() => this.store.saveReadings(this.unsaved));
      this.unsaved.clear();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }

  private read(phrases: string[]): void {
    const batch = phrases.slice(0, MAX_PHRASES_PER_WORKER);
    for (const phrase of batch) this.asked.add(phrase);
    const previous = this.running ?? Promise.resolve();
    const job = previous
      .then(() => {
        const turn = workerQueue.then(() => readInWorker(batch));
        workerQueue = turn.catch(() => undefined);
        return turn;
      })
      .then((pairs) => {
        for (const [phrase, reading] of pairs) {
          this.unsaved.set(phrase, reading);
        }
        this.fresh = true;
        this.flush();
      })
      .catch((error: unknown) => {
        this.warn(
          `phrase readings are unavailable: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => {
        if (this.running === job) this.running = undefined;
      });
    this.running = job;
  }
}

/**
 * Reads phrases in a child process that ends when it has answered: a process, not a thread, so
 * the memory the dictionary took goes back to the system when it ends (a thread's would stay in
 * the serving process's heap arenas).
 */
function readInWorker(phrases: readonly string[]): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    const reader = fork(READER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
    let answered = false;
    reader.once('message', (pairs) => {
      answered = true;
      resolve(pairs as [string, string][]);
    });
    reader.once('error', reject);
    reader.once('exit', (code) => {
      if (!answered) reject(new Error(`the reading process ended (exit code ${code}) without an answer`));
    });
    reader.send(phrases);
  });
}
