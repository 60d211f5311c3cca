/**
 * The arguments and the shape of every keyset connection of the schema (forms, leads, responses, the
 * audit log): `first` and `after` checked the same way everywhere, and a newest-first page as a Relay
 * connection whose cursors are encoded only when a client selects them.
 */
import { invalidInput, type FieldError } from '../errors.ts';
import { cursorOf, decodeCursor, INVALID_CURSOR, MAX_PAGE_SIZE } from '../keyset.ts';

/** A connection's page size when `first` is not given. */
export const DEFAULT_PAGE_SIZE = 10;

export const invalidArguments = (errors: FieldError[]) => invalidInput(errors, 'Invalid arguments');

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/**
 * `first` (1..MAX_PAGE_SIZE, `defaultSize` when absent) and `after` (a cursor a listing wrote) checked,
 * together with the problems the caller found in its other arguments (`errors`): BAD_USER_INPUT lists
 * every problem, with the argument's path.
 */
export function checkPageArgs(args: PageArgs, errors: FieldError[] = [], defaultSize = DEFAULT_PAGE_SIZE) {
  const first = args.first ?? defaultSize;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) errors.push({ message: `first must be between 1 and ${MAX_PAGE_SIZE}`, path: ['first'] });
  const after = args.after === null || args.after === undefined ? undefined : decodeCursor(args.after);
  if (args.after !== null && args.after !== undefined && !after) errors.push({ message: `after ${INVALID_CURSOR}`, path: ['after'] });
  if (errors.length > 0) throw invalidArguments(errors);
  return { first, after };
}

/** A newest-first keyset page as a Relay connection (`hasPrevious`: the page continues another). */
export function keysetConnection<T extends { id: string; position: string }>(rows: T[], hasNextPage: boolean, hasPrevious: boolean) {
  return {
    edges: rows.map((node) => ({
      node,
      get cursor() {
        return cursorOf(node);
      },
    })),
    pageInfo: {
      hasNextPage,
      hasPreviousPage: hasPrevious,
      get startCursor() {
        return rows[0] ? cursorOf(rows[0]) : null;
      },
      get endCursor() {
        const last = rows.at(-1);
        return last ? cursorOf(last) : null;
      },
    },
  };
}

/**
 * Cost of a page (the /graphql cost limit): every row it may hold (`first`, or its default) is read
 * whole from the database whatever is selected, so it costs ROW_COST, and the selection counts once per
 * row.
 */
export const ROW_COST = 5;
export const pageComplexity = (args: { first?: number | null }) => {
  const rows = Math.min(Math.max(args.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  return { field: 1 + rows * ROW_COST, multiplier: rows };
};
