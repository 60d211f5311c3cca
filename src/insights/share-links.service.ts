/**
 * Share links of a form's read-only results page (`/r/<token>`). A link's token is 256 random bits,
 * shown once when the link is made; only its SHA-256 hash is stored, so the database alone opens no
 * page. Revoking deletes the row: the next request on any node finds no link (no node caches links).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { formShareLinks, forms } from '../db/schema.ts';
import { invalidInput, notFound } from '../errors.ts';
import { findFormById, type Form } from '../forms/forms.service.ts';
import { createId } from '../ids.ts';

/** Live share links one form may have. */
export const MAX_SHARE_LINKS_PER_FORM = 100;
/** A token as links carry it: 32 random bytes in base64url. */
export const SHARE_TOKEN_PATTERN = /^[\w-]{43}$/;

export type ShareLink = Omit<typeof formShareLinks.$inferSelect, 'tokenHash'>;
export interface CreatedShareLink {
  link: ShareLink;
  /** The page's path, `/r/<token>`: returned once, never stored. */
  url: string;
}

export const resultsPath = (token: string) => `/r/${token}`;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const publicColumns = {
  id: formShareLinks.id,
  formId: formShareLinks.formId,
  environmentId: formShareLinks.environmentId,
  includeTextAnswers: formShareLinks.includeTextAnswers,
  expiresAt: formShareLinks.expiresAt,
  createdAt: formShareLinks.createdAt,
};

/** The form `formId` of `environmentId` (not deleted), or NOT_FOUND. */
async function formIn(db: Db, environmentId: string, formId: string): Promise<Form> {
  const form = await findFormById(db, formId);
  if (!form || form.environmentId !== environmentId) throw notFound('Form not found');
  return form;
}

/** A new link to the results of form `formId`; `expiresAt` must be in the future. */
export async function createShareLink(
  db: Db,
  environmentId: string,
  formId: string,
  input: { expiresAt?: Date | null | undefined; includeTextAnswers?: boolean | null | undefined },
  now = new Date(),
): Promise<CreatedShareLink> {
  const form = await formIn(db, environmentId, formId);
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) throw invalidInput([{ message: 'Must be in the future', path: ['expiresAt'] }], 'Invalid arguments');
  const token = randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    // One writer at a time per form, so concurrent creations cannot pass the cap together.
    await tx.select({ id: forms.id }).from(forms).where(eq(forms.id, form.id)).for('update');
    const [existing] = await tx.select({ n: count() }).from(formShareLinks).where(eq(formShareLinks.formId, form.id));
    if ((existing?.n ?? 0) >= MAX_SHARE_LINKS_PER_FORM)
      throw invalidInput([{ message: `A form has at most ${MAX_SHARE_LINKS_PER_FORM} share links; revoke one first`, path: ['formId'] }], 'Invalid arguments');
    const [row] = await tx
      .insert(formShareLinks)
      .values({
        id: createId(),
        formId: form.id,
        environmentId: form.environmentId,
        tokenHash: hashOf(token),
        includeTextAnswers: input.includeTextAnswers ?? false,
        expiresAt: input.expiresAt ?? null,
      })
      .returning(publicColumns);
    return { link: row!, url: resultsPath(token) };
  });
}

/** The links of form `formId` (expired ones included), oldest first. */
export async function listShareLinks(db: Db, environmentId: string, formId: string): Promise<ShareLink[]> {
  await formIn(db, environmentId, formId);
  return db
    .select(publicColumns)
    .from(formShareLinks)
    .where(and(eq(formShareLinks.formId, formId), eq(formShareLinks.environmentId, environmentId)))
    .orderBy(asc(formShareLinks.createdAt), asc(formShareLinks.id));
}

/** Revokes link `id` of form `formId` at once; NOT_FOUND when the form has no such link. */
export async function revokeShareLink(db: Db, environmentId: string, formId: string, id: string): Promise<ShareLink> {
  const [row] = await db
    .delete(formShareLinks)
    .where(and(eq(formShareLinks.id, id), eq(formShareLinks.formId, formId), eq(formShareLinks.environmentId, environmentId)))
    .returning(publicColumns);
  if (!row) throw notFound('Share link not found');
  return row;
}

/** The environment of form `formId` (for the admin token), undefined when there is no such form. */
export async function shareLinkFormEnvironment(db: Db, formId: string): Promise<string | undefined> {
  return (await findFormById(db, formId))?.environmentId;
}

/**
 * The link a token opens and its form: not revoked, not expired, the form not deleted. Undefined for a
 * token of the wrong shape without asking the database.
 */
export async function openShareLink(db: Db, token: string, now = new Date()): Promise<{ link: ShareLink; form: Form } | undefined> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ link: publicColumns, form: forms })
    .from(formShareLinks)
    .innerJoin(forms, eq(forms.id, formShareLinks.formId))
    .where(and(eq(formShareLinks.tokenHash, hashOf(token)), isNull(forms.deletedAt), or(isNull(formShareLinks.expiresAt), gt(formShareLinks.expiresAt, now))));
  return row;
}
