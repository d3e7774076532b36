import type { TextedPart } from '../domain/index.js';
import type { HostEventsRecord } from '../run-data/index.js';

/** Hosts named in a message; the others are counted. */
const LISTED_HOSTS = 5;

/**
 * The run's message about the hosts that slowed it down, paused it or were given up
 * (docs/reference/crawl-rules.md, Slowing down and pausing), e.g. `hosts: 127.0.0.1:8080 answered
 * 429/503 3 time(s), slowed to one request every 4 s; 127.0.0.1:9090 paused 4 time(s) after
 * server errors in a row, then given up: 37 URL(s) not fetched`. '' when every host answered well.
 */
export function hostMessageOf(hosts: readonly HostEventsRecord[] | undefined): string {
  return hostPartOf(hosts)?.text ?? '';
}

/** The hosts' part of the run's message (docs/api.md, Run messages); `detail` stays English. */
export function hostPartOf(hosts: readonly HostEventsRecord[] | undefined): TextedPart | undefined {
  const told = (hosts ?? []).filter((host) => host.slowdowns > 0 || host.pauses > 0 || host.givenUp);
  if (told.length === 0) return undefined;
  const parts = told.slice(0, LISTED_HOSTS).map((host) => {
    const said: string[] = [];
    if (host.slowdowns > 0) {
      said.push(
        `answered 429/503 ${host.slowdowns} time(s), slowed to one request every ${seconds(host.maxGapMs)} s`,
      );
    }
    if (host.pauses > 0) said.push(`paused ${host.pauses} time(s) after server errors in a row`);
    if (host.givenUp) said.push(`given up: ${host.notFetched} URL(s) not fetched`);
    return `${host.host} ${said.join(', then ')}`;
  });
  const more = told.length > LISTED_HOSTS ? `; and ${told.length - LISTED_HOSTS} more` : '';
  const detail = `${parts.join('; ')}${more}`;
  return { code: 'hosts', values: { hosts: told.length, detail }, text: `hosts: ${detail}` };
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
