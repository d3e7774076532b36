import { Parser } from 'htmlparser2';

export interface XmlHandlers {
  /** An element starts; name is its local name, without the namespace prefix. */
  open?(name: string, attributes: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
  /** Asked after each text: true stops the walk, for a reader that has all the text it wants. */
  done?(): boolean;
}

/**
 * Streams the elements and text of an XML part by local name. Content under mc:Fallback is skipped:
 * Office writes text boxes twice, once for new readers and once as a fallback, and one copy is enough.
 */
export function walkXml(xml: string, handlers: XmlHandlers): void {
  let fallbackDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const local = localName(name);
        if (local === 'Fallback' || fallbackDepth > 0) {
          fallbackDepth += 1;
          return;
        }
        handlers.open?.(local, attributes);
      },
      ontext(text) {
        if (fallbackDepth > 0) return;
        handlers.text?.(text);
        if (handlers.done?.()) parser.pause();
      },
      onclosetag(name) {
        if (fallbackDepth > 0) {
          fallbackDepth -= 1;
          return;
        }
        handlers.close?.(localName(name));
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** The value of a namespaced attribute such as r:id, whatever prefix the document gave it. */
export function prefixedAttribute(attributes: Record<string, string>, local: string): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    if (name.endsWith(`:${local}`)) return value;
  }
  return undefined;
}
