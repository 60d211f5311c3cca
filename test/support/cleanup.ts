/**
 * Clean-ups that run when the test file ends, wherever they are registered. vitest 4 silently drops an
 * `afterAll` registered inside `beforeAll` (or a test): the servers, isolated databases and handles the
 * helpers set up from there were never stopped, dropped or closed. test/support/setup.ts runs these from the
 * file's own `afterAll`, the last registered first.
 */
const cleanups: (() => unknown)[] = [];

export function onFileEnd(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

export async function runFileEnd(): Promise<void> {
  const errors: unknown[] = [];
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, 'clean-ups failed at the end of the test file');
}
