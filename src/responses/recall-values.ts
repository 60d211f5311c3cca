/** A response's values as recall placeholders take them (src/forms/recall.ts). */
import type { ResponseAnswer, ResponseMeta } from '../db/json-columns.ts';
import type { RecallLookup } from '../forms/recall.ts';
import { answerCell } from './export.ts';

/**
 * A response's values for recall: its answers by component key (as the CSV export writes them; an
 * IdentityInfo field by its key; a password never), its hidden fields and variables.
 */
export function recallLookup(response: { data: readonly ResponseAnswer[]; meta: ResponseMeta }): RecallLookup {
  const byKey = new Map(response.data.flatMap((answer) => (answer.key === undefined ? [] : [[answer.key, answer] as const])));
  const hidden = response.meta.hiddenFields ?? {};
  const variables = response.meta.variables ?? {};
  return ({ kind, name, field }) => {
    if (kind === 'hidden') return Object.hasOwn(hidden, name) && hidden[name] !== '' ? hidden[name] : undefined;
    if (kind === 'variable') return Object.hasOwn(variables, name) ? String(variables[name]) : undefined;
    const answer = byKey.get(name);
    const text = answer ? answerCell(answer.response.type, answer.response, field) : '';
    return text === '' ? undefined : text;
  };
}
