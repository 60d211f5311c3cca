import { createId as cuid } from '@paralleldrive/cuid2';

/** Collision-resistant, URL-safe ids in the shape the original product uses (e.g. `cm5abc123def456…`). */
export const createId = (): string => cuid();
