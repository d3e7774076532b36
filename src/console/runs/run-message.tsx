/**
 * A run's message in the console's language (docs/console.md, Run page): said from the parts'
 * codes and values the API answers next to the English `message` (docs/api.md, Run messages).
 * A run ended before parts were kept, or a part of a code this console does not know, shows the
 * English text.
 */
import { runMessageTexts } from './run-message-texts.js';

export interface RunMessagePart {
  code: string;
  values: Record<string, string | number>;
}

type Say = (values: Record<string, string | number>) => string;

/** The message in the current language. */
export function runMessageText(message: string, parts: readonly RunMessagePart[] | undefined): string {
  if (parts === undefined || parts.length === 0) return message;
  const t = runMessageTexts();
  const said: string[] = [];
  for (const part of parts) {
    const say = (t as unknown as Record<string, Say | string>)[part.code];
    if (typeof say !== 'function' || part.code === 'separator') return message;
    said.push(say(part.values));
  }
  return said.join(t.separator);
}
