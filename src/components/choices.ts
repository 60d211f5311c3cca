/** Content pieces the choice types share. */
import { z } from 'zod';
import { LIMITS, shortText } from './content.ts';

export const optionList = z.array(shortText.min(1, 'an option must not be empty')).max(LIMITS.maxOptions);

/** A list of `min` to `max` distinct, non-empty texts (a Matrix's rows and columns, a Ranking's options); a repeat is refused at its index. */
export const distinctTexts = (what: string, min: number, max: number) =>
  z
    .array(shortText.min(1, `a ${what} must not be empty`))
    .min(min, `needs at least ${min} ${what}s`)
    .max(max, `takes at most ${max} ${what}s`)
    .superRefine((list, ctx) => {
      list.forEach((item, index) => {
        if (list.indexOf(item) !== index) ctx.addIssue({ code: 'custom', path: [index], message: `"${item}" is listed twice` });
      });
    });
