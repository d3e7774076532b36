import { FIELDS } from '../../domain/index.js';

export { FIELDS, type FieldName } from '../../domain/index.js';

/**
 * The indexed fields of a document. Each field is analyzed on its own, and a token position
 * carries its field in the high bits (see `positionOf`), so a phrase never spans two fields.
 */
export const FIELD_COUNT = FIELDS.length;

export const FIELD_SHIFT = 24;
/** Tokens of one field past this are not indexed (about 16 million: far beyond any page). */
export const MAX_FIELD_TOKENS = (1 << FIELD_SHIFT) - 1;

export function positionOf(field: number, offset: number): number {
  return ((field << FIELD_SHIFT) | offset) >>> 0;
}

export function fieldOfPosition(position: number): number {
  return position >>> FIELD_SHIFT;
}
