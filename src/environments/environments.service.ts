import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { environments } from '../db/schema.ts';
import { AppError, invalidInput, toFieldErrors } from '../errors.ts';
import { createId } from '../ids.ts';

export type Environment = typeof environments.$inferSelect;

const createEnvironmentInputSchema = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(200),
  /** The Site ID; generated when absent. */
  id: z
    .string()
    .regex(/^[\w-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"')
    .optional(),
});
export type CreateEnvironmentInput = z.input<typeof createEnvironmentInputSchema>;

export async function createEnvironment(db: Db, input: CreateEnvironmentInput): Promise<Environment> {
  const parsed = createEnvironmentInputSchema.safeParse(input);
  if (!parsed.success) throw invalidInput(toFieldErrors(parsed.error.issues), 'Invalid input');
  const [row] = await db
    .insert(environments)
    .values({ id: parsed.data.id ?? createId(), name: parsed.data.name })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError('CONFLICT', `An environment with id "${parsed.data.id}" already exists`);
  return row;
}

export async function getEnvironment(db: Db, id: string): Promise<Environment | undefined> {
  const [row] = await db.select().from(environments).where(eq(environments.id, id));
  return row;
}

export async function hasAnyEnvironment(db: Db): Promise<boolean> {
  const rows = await db.select({ id: environments.id }).from(environments).limit(1);
  return rows.length > 0;
}

/** Environments by id, in one statement: only `scope` itself (null: any), else null. */
export async function loadEnvironments(db: Db, scope: string | null, ids: readonly string[]): Promise<(Environment | null)[]> {
  const wanted = scope === null ? [...ids] : ids.filter((id) => id === scope);
  const rows = wanted.length === 0 ? [] : await db.select().from(environments).where(inArray(environments.id, wanted));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
