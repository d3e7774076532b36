import { type Static, Type } from '@sinclair/typebox';
import type { FieldError } from './field-error.js';

/** Limits of a service's synonym list (docs/reference/site-search.md, Synonyms). */
export const MAX_SYNONYM_GROUPS = 1000;
export const MAX_SYNONYM_RULES = 1000;
export const MAX_SYNONYM_MEMBERS = 20;
export const MAX_SYNONYM_LENGTH = 100;
/** A query run longer than this is never compared with the list, so a longer member could never match. */
export const MAX_SYNONYM_WORDS = 8;

const Member = Type.String({
  minLength: 1,
  maxLength: MAX_SYNONYM_LENGTH,
  description: 'a word or several words (matched as a phrase), compared after NFKC and lower case',
});

/** The `synonyms` member of a search service's configuration. */
export const SynonymsSchema = Type.Object(
  {
    starter_set: Type.Optional(
      Type.Boolean({ description: 'also use the shipped starter set of Japanese and English IT synonyms' }),
    ),
    groups: Type.Optional(
      Type.Array(Type.Array(Member, { minItems: 2, maxItems: MAX_SYNONYM_MEMBERS }), {
        maxItems: MAX_SYNONYM_GROUPS,
        description: 'two-way groups: a query word equal to any member also finds the others',
      }),
    ),
    rules: Type.Optional(
      Type.Array(
        Type.Object(
          {
            from: Member,
            to: Type.Array(Member, { minItems: 1, maxItems: MAX_SYNONYM_MEMBERS }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_SYNONYM_RULES,
          description: 'one-way rules: a query word equal to `from` also finds `to`, not the reverse',
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'synonyms applied to queries' },
);

export type SynonymsConfig = Static<typeof SynonymsSchema>;

/**
 * What the schema cannot say: every member has letters or digits and at most
 * MAX_SYNONYM_WORDS words, and no member repeats another of its group or rule once normalized.
 */
export function checkSynonyms(synonyms: SynonymsConfig, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const checkMembers = (members: readonly { text: string; field: string }[]) => {
    const seen = new Map<string, number>();
    members.forEach((member, index) => {
      const reason = memberProblem(member.text);
      if (reason !== undefined) {
        errors.push({ field: member.field, reason });
        return;
      }
      const key = comparedForm(member.text);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        errors.push({
          field: member.field,
          reason: `is "${members[earlier]!.text}" again once case, width and punctuation are ignored`,
        });
      } else seen.set(key, index);
    });
  };
  synonyms.groups?.forEach((group, groupIndex) =>
    checkMembers(group.map((text, index) => ({ text, field: `${field}.groups[${groupIndex}][${index}]` }))),
  );
  synonyms.rules?.forEach((rule, ruleIndex) =>
    checkMembers([
      { text: rule.from, field: `${field}.rules[${ruleIndex}].from` },
      ...rule.to.map((text, index) => ({ text, field: `${field}.rules[${ruleIndex}].to[${index}]` })),
    ]),
  );
  return errors;
}

function memberProblem(text: string): string | undefined {
  if (comparedForm(text) === '') return 'has no letters or digits';
  if (text.split(/\s+/u).filter((word) => word !== '').length > MAX_SYNONYM_WORDS)
    return `has more than ${MAX_SYNONYM_WORDS} words`;
  return undefined;
}

/**
 * A member as queries are compared with it: NFKC, lower case, its letters and digits (the search
 * analyzer's normalization, docs/reference/site-search.md, Query syntax).
 */
function comparedForm(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
  ).join(' ');
}
