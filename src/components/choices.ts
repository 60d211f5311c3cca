/** Content pieces the choice types share. */
import { z } from 'zod';
import { LIMITS, shortText } from './content.ts';

export const optionList = z.array(shortText.min(1, 'an option must not be empty')).max(LIMITS.maxOptions);
