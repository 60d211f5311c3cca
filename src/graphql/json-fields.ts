/** Readers for stored JSON (component content, answers) as the typed GraphQL fields expose it. */

export const asString = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null);
export const asBoolean = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
export const asInt = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);
/** The strings of a list; a single string reads as a list of one. */
export const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []);
