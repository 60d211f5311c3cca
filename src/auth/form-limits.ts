/**
 * Keys limited to some forms (`formIds`). A form outside a key's set is, to that key, a form that does not
 * exist: every lookup answers as it does for another environment's form (NOT_FOUND), and environment-wide
 * listings (forms, responses, leads, webhooks, exports, insights, the live feed) show only the key's forms.
 */
import { AppError, notFound } from '../errors.ts';
import type { Principal } from './auth.service.ts';

/** The forms the caller is limited to; null: every form of its environment (the admin token, unlimited keys). */
export function formLimitOf(principal: Principal): readonly string[] | null {
  return principal.kind === 'apiKey' ? principal.formIds : null;
}

/** Whether the caller's form limit lets it reach `formId` (not whether the form exists). */
export function reachesForm(principal: Principal, formId: string | null | undefined): boolean {
  const limit = formLimitOf(principal);
  return limit === null || (typeof formId === 'string' && limit.includes(formId));
}

/** Throws NOT_FOUND (`message`, as for another environment's form) unless the caller reaches `formId`. */
export function requireFormReach(principal: Principal, formId: string | null | undefined, message = 'Form not found'): void {
  if (!reachesForm(principal, formId)) throw notFound(message);
}

/** The subset of `ids` the caller reaches, in their order. */
export function reachableForms<T extends string>(principal: Principal, ids: readonly T[]): T[] {
  const limit = formLimitOf(principal);
  return limit === null ? [...ids] : ids.filter((id) => limit.includes(id));
}

/** The `ids` filter of a listing of forms: the caller's forms, or nothing for a caller not limited to forms. */
export function formsFilterOf(principal: Principal): { ids?: readonly string[] } {
  const limit = formLimitOf(principal);
  return limit === null ? {} : { ids: limit };
}

/** The `formIds` of an environment-wide listing of responses (none when it names one form, or the caller is not limited). */
export function listingFormsOf(principal: Principal, formId?: string): { formIds?: readonly string[] } {
  const limit = formLimitOf(principal);
  return limit === null || formId !== undefined ? {} : { formIds: limit };
}

/**
 * Whether a webhook endpoint (its `formIds`, null: every form) is one a caller limited to forms may see:
 * only one limited to forms that are all among the caller's.
 */
export function coversForms(principal: Principal, endpointFormIds: readonly string[] | null): boolean {
  const limit = formLimitOf(principal);
  if (limit === null) return true;
  return endpointFormIds !== null && endpointFormIds.every((id) => limit.includes(id));
}

/** Throws FORBIDDEN for a key limited to forms: `what` acts on the whole environment (a new form, a person's data). */
export function requireWholeEnvironment(principal: Principal, what: string): void {
  if (formLimitOf(principal) !== null) throw new AppError('FORBIDDEN', `A key limited to forms cannot ${what}`);
}
