import { customAlphabet } from 'nanoid';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const firstLetter = customAlphabet(LETTERS, 1);
const rest = customAlphabet(`0123456789${LETTERS}`, 23);

/**
 * Collision-resistant, URL-safe ids in the shape the original product uses (e.g. `cm5abc123def456…`):
 * 24 lowercase letters and digits, starting with a letter, 23 × log2(36) ≈ 119 random bits from
 * node:crypto. (This was @paralleldrive/cuid2, whose SHA3 in plain JavaScript took ~0.3 ms per id
 * here, several ids per submission; nanoid draws from a pooled crypto buffer in ~1 µs.)
 */
export const createId = (): string => firstLetter() + rest();
