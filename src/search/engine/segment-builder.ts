import type { AnalyzedText } from '../analyzer.js';
import { GrowableUint32Array } from '../../util/index.js';
import { FIELD_COUNT, MAX_FIELD_TOKENS, positionOf } from './fields.js';
import { BuiltSegment } from './segment.js';

/** A document analyzed field by field (`FIELDS` order), ready to be indexed. */
export interface AnalyzedDocument {
  docId: number;
  fields: readonly AnalyzedText[];
}

/**
 * Builds the segment of one batch. Every token occurrence is recorded once as (term, document,
 * position), then grouped by term with a counting sort, which keeps document and position
 * order, so postings come out ascending without a comparison sort.
 */
export function buildSegment(id: number, documents: readonly AnalyzedDocument[]): BuiltSegment {
  const termOrdinals = new Map<string, number>();
  const terms: string[] = [];
  const occurrenceTerm = new GrowableUint32Array(documents.length * 512);
  const occurrenceDoc = new GrowableUint32Array(documents.length * 512);
  const occurrencePosition = new GrowableUint32Array(documents.length * 512);
  const fieldLengths = new Uint32Array(documents.length * FIELD_COUNT);
  const docIds = new Uint32Array(documents.length);

  const record = (token: string, ordinal: number, position: number) => {
    let term = termOrdinals.get(token);
    if (term === undefined) {
      term = terms.length;
      termOrdinals.set(token, term);
      terms.push(token);
    }
    occurrenceTerm.push(term);
    occurrenceDoc.push(ordinal);
    occurrencePosition.push(position);
  };

  documents.forEach((document, ordinal) => {
    docIds[ordinal] = document.docId;
    document.fields.forEach((field, fieldIndex) => {
      const streamLength = Math.min(field.stream.length, MAX_FIELD_TOKENS);
      fieldLengths[ordinal * FIELD_COUNT + fieldIndex] = streamLength;
      for (let offset = 0; offset < streamLength; offset += 1) {
        record(field.stream[offset]!, ordinal, positionOf(fieldIndex, offset));
      }
      const wordCount = Math.min(field.words.length, MAX_FIELD_TOKENS);
      for (let offset = 0; offset < wordCount; offset += 1) {
        record(field.words[offset]!, ordinal, positionOf(fieldIndex, offset));
      }
    });
  });

  // Counting sort of the occurrences by term.
  const occurrences = occurrenceTerm.length;
  const termStart = new Uint32Array(terms.length + 1);
  for (let index = 0; index < occurrences; index += 1) termStart[occurrenceTerm.get(index) + 1]! += 1;
  for (let term = 0; term < terms.length; term += 1) termStart[term + 1]! += termStart[term]!;
  const cursor = termStart.slice(0, terms.length);
  const sortedDoc = new Uint32Array(occurrences);
  const sortedPosition = new Uint32Array(occurrences);
  for (let index = 0; index < occurrences; index += 1) {
    const slot = cursor[occurrenceTerm.get(index)]!++;
    sortedDoc[slot] = occurrenceDoc.get(index);
    sortedPosition[slot] = occurrencePosition.get(index);
  }

  // Postings: one per (term, document), positions in a flat array.
  const postingStart = new Uint32Array(terms.length + 1);
  const postingDocs = new GrowableUint32Array(occurrences);
  const positionStart = new GrowableUint32Array(occurrences);
  for (let term = 0; term < terms.length; term += 1) {
    postingStart[term] = postingDocs.length;
    let previousDoc = -1;
    for (let slot = termStart[term]!; slot < termStart[term + 1]!; slot += 1) {
      const doc = sortedDoc[slot]!;
      if (doc !== previousDoc) {
        postingDocs.push(doc);
        positionStart.push(slot);
        previousDoc = doc;
      }
    }
  }
  postingStart[terms.length] = postingDocs.length;
  positionStart.push(occurrences);
  return new BuiltSegment(id, {
    docIds,
    fieldLengths,
    terms,
    postingStart,
    postingDocs: postingDocs.toArray(),
    positionStart: positionStart.toArray(),
    positions: sortedPosition,
  });
}
