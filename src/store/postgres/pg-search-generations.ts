import {
  type SearchGeneration,
  type SearchGenerationStore,
  WriterLeaseLostError,
} from '../search-generations.js';
import type { PgSql } from './pg-connection.js';

/** The channel every search node listens on; the payload is `<service id>:<generation>`. */
export const GENERATIONS_CHANNEL = 'kumo_search_generations';

interface GenerationRow {
  service_id: number;
  generation: number;
  name: string;
  bytes: number;
  documents: number;
  published_us: number;
}

/**
 * Index generations and writer leases in PostgreSQL (docs/design/scale-out.md, Search nodes). Lease
 * times are the database's clock, so machines whose clocks disagree still agree on who writes. A
 * generation is recorded and announced (`pg_notify`, sent when the transaction commits) in the
 * transaction that checks the lease, so a writer that lost its lease never publishes.
 */
export class PgSearchGenerationStore implements SearchGenerationStore {
  constructor(private readonly sql: PgSql) {}

  async takeWriter(serviceId: number, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.sql`
      INSERT INTO search_writers (service_id, owner, until_us)
      VALUES (${serviceId}, ${owner}, ${nowUs(this.sql)} + ${leaseMs * 1000})
      ON CONFLICT (service_id) DO UPDATE SET owner = excluded.owner, until_us = excluded.until_us
      WHERE search_writers.owner = excluded.owner OR search_writers.until_us < ${nowUs(this.sql)}
      RETURNING owner`;
    return rows.length === 1;
  }

  async releaseWriter(serviceId: number, owner: string): Promise<void> {
    await this.sql`DELETE FROM search_writers WHERE service_id = ${serviceId} AND owner = ${owner}`;
  }

  async releaseAllWriters(): Promise<void> {
    await this.sql`DELETE FROM search_writers`;
  }

  async publish(
    serviceId: number,
    owner: string,
    file: { name: string; bytes: number; documents: number },
    basedOn: number,
    nowMicros: number,
  ): Promise<number> {
    return this.sql.begin(async (tx) => {
      const held = await tx`
        SELECT 1 FROM search_writers WHERE service_id = ${serviceId} AND owner = ${owner}
          AND until_us >= ${nowUs(this.sql)}
        FOR UPDATE`;
      if (held.length === 0)
        throw new WriterLeaseLostError(`the writer lease of search service ${serviceId} has ended`);
      const [newest] = await tx<{ generation: number | null }[]>`
        SELECT max(generation) AS generation FROM search_generations WHERE service_id = ${serviceId}`;
      if ((newest?.generation ?? 0) !== basedOn)
        throw new WriterLeaseLostError(
          `search service ${serviceId} was published as generation ${newest?.generation ?? 0} by another process ` +
            `while this one wrote from generation ${basedOn}`,
        );
      const [row] = await tx<{ generation: number }[]>`
        INSERT INTO search_generations (service_id, generation, name, bytes, documents, published_us)
        SELECT ${serviceId}, coalesce(max(generation), 0) + 1, ${file.name}, ${file.bytes}, ${file.documents},
          ${nowMicros}
        FROM search_generations WHERE service_id = ${serviceId}
        RETURNING generation`;
      const generation = row!.generation;
      await tx`SELECT pg_notify(${GENERATIONS_CHANNEL}, ${`${serviceId}:${generation}`})`;
      return generation;
    });
  }

  async current(serviceId: number): Promise<SearchGeneration | undefined> {
    const [row] = await this.sql<GenerationRow[]>`
      SELECT * FROM search_generations WHERE service_id = ${serviceId} ORDER BY generation DESC LIMIT 1`;
    return row === undefined ? undefined : generationOf(row);
  }

  async prune(serviceId: number, keep: number): Promise<SearchGeneration[]> {
    const rows = await this.sql<GenerationRow[]>`
      DELETE FROM search_generations WHERE service_id = ${serviceId} AND generation <= (
        SELECT max(generation) - ${keep} FROM search_generations WHERE service_id = ${serviceId})
      RETURNING *`;
    return rows.map(generationOf);
  }

  async listen(
    published: (serviceId: number, generation: number) => void,
    connected: () => void,
  ): Promise<{ close(): Promise<void> }> {
    const listening = await this.sql.listen(
      GENERATIONS_CHANNEL,
      (payload) => {
        const match = /^(\d+):(\d+)$/.exec(payload);
        if (match !== null) published(Number(match[1]), Number(match[2]));
      },
      connected,
    );
    return { close: () => listening.unlisten() };
  }
}

/** The database's clock in microseconds, as a fragment of a statement. */
function nowUs(sql: PgSql) {
  return sql`(extract(epoch from clock_timestamp()) * 1000000)::bigint`;
}

function generationOf(row: GenerationRow): SearchGeneration {
  return {
    serviceId: row.service_id,
    generation: row.generation,
    name: row.name,
    bytes: row.bytes,
    documents: row.documents,
    publishedMicros: row.published_us,
  };
}
