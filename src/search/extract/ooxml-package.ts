import { unzipSync } from 'fflate';
import type { UnzipFileInfo } from 'fflate';
import { walkXml } from './xml-walk.js';

/** Largest XML part inflated: a zip bomb declares small parts or fails here. */
const MAX_PART_BYTES = 64 * 1024 * 1024;
/** Most bytes inflated from one package, all parts together. */
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export interface Relationship {
  id: string;
  /** The last segment of the relationship type URI, e.g. 'officeDocument', 'slide', 'sharedStrings'. */
  type: string;
  /** The target's part name, resolved against the source part. */
  target: string;
}

/**
 * An Office Open XML package (docx, xlsx, pptx): a zip of XML parts linked by relationship parts.
 * Parts are inflated only when asked for, and never past the size limits.
 */
export class OoxmlPackage {
  private inflated = 0;
  private readonly rels = new Map<string, Relationship[]>();

  private constructor(private readonly zip: Uint8Array) {
    for (const [name, xml] of this.read((name) => name.endsWith('.rels'))) {
      this.rels.set(name.toLowerCase(), parseRelationships(xml, name));
    }
  }

  static open(bytes: Uint8Array): OoxmlPackage {
    return new OoxmlPackage(bytes);
  }

  /** Relationships from a part ('' for the package itself). */
  relationships(source: string): Relationship[] {
    return this.rels.get(relsPartOf(source).toLowerCase()) ?? [];
  }

  /** The first target of a relationship type from a part, if any. */
  related(source: string, type: string): string | undefined {
    return this.relationships(source).find((r) => r.type === type)?.target;
  }

  /** The main part: word/document.xml, xl/workbook.xml or ppt/presentation.xml in common packages. */
  mainPart(): string {
    const main = this.related('', 'officeDocument');
    if (main === undefined) throw new Error('no main document part in the package');
    return main;
  }

  /** The text of the named parts that exist, by name, in the order asked. */
  parts(names: readonly string[]): Map<string, string> {
    const wanted = new Set(names.map((name) => name.toLowerCase()));
    const found = new Map<string, string>();
    for (const [name, xml] of this.read((name) => wanted.has(name.toLowerCase()))) {
      found.set(name.toLowerCase(), xml);
    }
    const ordered = new Map<string, string>();
    for (const name of names) {
      const xml = found.get(name.toLowerCase());
      if (xml !== undefined) ordered.set(name, xml);
    }
    return ordered;
  }

  part(name: string): string | undefined {
    return this.parts([name]).get(name);
  }

  /** dc:title of the core properties part, '' if none. */
  title(): string {
    const core = this.part(this.related('', 'core-properties') ?? 'docProps/core.xml');
    if (core === undefined) return '';
    let inTitle = false;
    let title = '';
    walkXml(core, {
      open(name) {
        inTitle = name === 'title';
      },
      text(text) {
        if (inTitle) title += text;
      },
      close() {
        inTitle = false;
      },
    });
    return title;
  }

  private read(select: (name: string) => boolean): [string, string][] {
    const filter = (file: UnzipFileInfo): boolean => {
      if (file.name.endsWith('/') || !select(file.name)) return false;
      if (file.originalSize > MAX_PART_BYTES) {
        throw new Error(`part ${file.name} inflates to ${file.originalSize} bytes, over the limit`);
      }
      this.inflated += file.originalSize;
      if (this.inflated > MAX_TOTAL_BYTES) throw new Error(`parts inflate to over ${MAX_TOTAL_BYTES} bytes`);
      return true;
    };
    return Object.entries(unzipSync(this.zip, { filter })).map(([name, data]) => [name, decodeXml(data)]);
  }
}

function parseRelationships(xml: string, relsPart: string): Relationship[] {
  const base = sourceOf(relsPart);
  const relationships: Relationship[] = [];
  walkXml(xml, {
    open(name, attributes) {
      const { Id: id, Type: type, Target: target, TargetMode: mode } = attributes;
      if (name !== 'Relationship' || !id || !type || !target || mode === 'External') return;
      relationships.push({
        id,
        type: type.slice(type.lastIndexOf('/') + 1),
        target: resolvePart(base, target),
      });
    },
  });
  return relationships;
}

/** 'word/_rels/document.xml.rels' -> 'word/document.xml'; '_rels/.rels' -> ''. */
function sourceOf(relsPart: string): string {
  const match = /^(.*?)_rels\/(.*)\.rels$/u.exec(relsPart);
  return match ? `${match[1] ?? ''}${match[2] ?? ''}` : '';
}

/** 'word/document.xml' -> 'word/_rels/document.xml.rels'; '' -> '_rels/.rels'. */
function relsPartOf(source: string): string {
  const slash = source.lastIndexOf('/');
  return `${source.slice(0, slash + 1)}_rels/${source.slice(slash + 1)}.rels`;
}

/** A relationship target as a part name: relative to the source part's folder, or absolute. */
function resolvePart(source: string, target: string): string {
  const path = new URL(target, `http://package/${source}`).pathname.slice(1);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function decodeXml(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data);
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data);
  return new TextDecoder('utf-8').decode(data);
}
