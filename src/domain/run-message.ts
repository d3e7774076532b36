/**
 * A run's message in parts (docs/api.md, Run messages): each part of the English `message` has a
 * code and the values it was made from, so a client (the console) can say it in its own
 * language. The English text stays the API's `message`, its parts joined with `; `.
 */

/** Every code a part may have; `text` is a part only the English text says. */
export const RUN_MESSAGE_CODES = [
  'seeds_not_fetched',
  'no_seed_fetched',
  'sitemaps',
  'hosts',
  'kept_pages',
  'search_feed',
  'search_feed_failed',
  'crawled',
  'artifacts_failed',
  'cancelled_before_start',
  'crawler_failure',
  'storage_failure',
  'text',
] as const;

export type RunMessageCode = (typeof RUN_MESSAGE_CODES)[number];

export type RunMessageValues = Record<string, string | number>;

/** One part of a run's message as stored and answered: its code and values. */
export interface RunMessagePart {
  code: RunMessageCode;
  values: RunMessageValues;
}

/** A part while the message is made: with its English text. */
export interface TextedPart extends RunMessagePart {
  text: string;
}

/** A run's whole message: the English text and its parts in order. */
export interface RunMessage {
  text: string;
  parts: RunMessagePart[];
}

export const NO_MESSAGE: RunMessage = { text: '', parts: [] };

/** The message of parts, in order; absent parts are left out. */
export function messageOf(parts: readonly (TextedPart | undefined)[]): RunMessage {
  const present = parts.filter((part): part is TextedPart => part !== undefined && part.text !== '');
  return {
    text: present.map((part) => part.text).join('; '),
    parts: present.map(({ code, values }) => ({ code, values })),
  };
}

/** Joins messages in order: `first; second`. */
export function joinMessages(...messages: readonly RunMessage[]): RunMessage {
  const present = messages.filter((message) => message.text !== '');
  return {
    text: present.map((message) => message.text).join('; '),
    parts: present.flatMap((message) => message.parts),
  };
}

/** A message of one part. */
export function onePart(code: RunMessageCode, values: RunMessageValues, text: string): RunMessage {
  return messageOf([{ code, values, text }]);
}

/**
 * The stored parts of a message, read back; a part whose code this build does not know (a newer
 * build wrote it) or a column written before parts were kept read as no parts.
 */
export function partsFromJson(json: string): RunMessagePart[] {
  if (json === '') return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (part): part is RunMessagePart =>
        typeof part === 'object' &&
        part !== null &&
        (RUN_MESSAGE_CODES as readonly string[]).includes((part as RunMessagePart).code) &&
        typeof (part as RunMessagePart).values === 'object',
    );
  } catch {
    return [];
  }
}
