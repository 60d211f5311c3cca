/**
 * `optionScores` in a component's content: a number for each of its options (`{<option>: number}`), which
 * a calculation's `{scoreOf: <key>}` sums over the options an answer chose (docs/logic.md). Which options a
 * component has comes from its module's condition subject: a choice's options, or the whole numbers a
 * bounded numeric question answers (a rating, an NPS); any other component has none to score.
 */
import { moduleOf } from './catalogue.ts';
import { isObject, LIMITS, type Content } from './content.ts';
import type { StoredComponent } from '../db/json-columns.ts';

/** The options of a component that a score may be given for, or undefined when it has none. */
function scorableOptions(component: StoredComponent): readonly string[] | undefined {
  const subject = moduleOf(component.type)?.conditions?.subject(component, undefined);
  if (!subject || typeof subject === 'string') return undefined;
  if ((subject.kind === 'choice' || subject.kind === 'choices') && subject.options) return subject.options;
  if (subject.kind === 'number' && Number.isInteger(subject.min) && Number.isInteger(subject.max) && subject.max! - subject.min! <= LIMITS.maxOptions) {
    return Array.from({ length: subject.max! - subject.min! + 1 }, (_, i) => String(subject.min! + i));
  }
  return undefined;
}

/** Problems of a component's `optionScores` (paths from its content), none when it has none. */
export function optionScoreProblems(type: string, content: Content): { path: (string | number)[]; message: string }[] {
  const scores = content.optionScores;
  if (scores === undefined || scores === null) return [];
  if (!isObject(scores)) return [{ path: ['optionScores'], message: '"optionScores" takes {<option>: number}' }];
  const options = scorableOptions({ id: '', type, content });
  if (!options) return [{ path: ['optionScores'], message: `A ${type} has no options to score` }];
  return Object.entries(scores).flatMap(([option, score]) => {
    if (!options.includes(option)) return [{ path: ['optionScores', option], message: `"${option}" is not one of the options` }];
    if (typeof score !== 'number' || !Number.isFinite(score)) return [{ path: ['optionScores', option], message: 'A score must be a number' }];
    return [];
  });
}
