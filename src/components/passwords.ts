/**
 * PasswordInput and PasswordCreatorInput. The answer is a string (PasswordCreatorInput also
 * `{password, confirmation}`); it is stored only as an scrypt hash, taken once the whole submission
 * is valid (scrypt is costly), and never shown or returned.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { html } from 'hono/html';
import { z } from 'zod';
import { ANSWER_LIMITS, isEmpty, REQUIRED, type StoredResponse } from './answers.ts';
import { loose, shortText, text, type Content } from './content.ts';
import { fieldName } from './fields.ts';
import { box, describedBy, domId, errorsOf, errorText, label, singleInput, str } from './markup.ts';
import { fieldless } from './conditions.ts';
import type { ComponentModule } from './module.ts';
import { pageWords } from '../i18n/locales.ts';

const SCRYPT = { N: 16_384, r: 8, p: 1, keylen: 32 } as const;
function scrypt(password: string, salt: Buffer, options: ScryptOptions, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCallback(password.normalize('NFKC'), salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash` (base64url); the clear text is never stored. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, SCRYPT.keylen);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected);
}

/** A password that passed validation, hashed only once the whole submission is valid. */
class PendingPassword {
  constructor(readonly clear: string) {}
}

/** Whether a validated response still holds a password in clear (it costs a hash to store). */
export const holdsPassword = (response: StoredResponse | null): boolean => response?.input instanceof PendingPassword;

/** The response as stored: a validated password replaced by its hash (`hash`: bounded, see password-hashing.ts). */
export async function sealResponse(response: StoredResponse, hash: (clear: string) => Promise<string> = hashPassword): Promise<StoredResponse> {
  return response.input instanceof PendingPassword ? { ...response, input: await hash(response.input.clear) } : response;
}

const content = loose({ question: text.optional(), placeholder: shortText.optional() });

export const passwords: ComponentModule = {
  types: { PasswordInput: content, PasswordCreatorInput: content },
  answer: {
    shapes: {
      answer: z
        .union([z.string(), z.strictObject({ password: z.string(), confirmation: z.string() })])
        .meta({ description: 'The password; a PasswordCreatorInput also takes `{password, confirmation}`.' }),
      stored: { input: z.string().meta({ description: 'Its scrypt hash (`scrypt$N$r$p$salt$hash`): the password is never stored.' }) },
    },
    parse({ type }, raw, problems, required) {
      let value = raw;
      if (type === 'PasswordCreatorInput' && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        const { password: pw, confirmation } = raw as Content;
        value = pw;
        if (typeof pw === 'string' && pw !== '' && confirmation !== pw) problems.add(['confirmation'], 'The passwords do not match');
      }
      if (isEmpty(value)) {
        if (required) problems.add([], REQUIRED);
        return null;
      }
      if (typeof value !== 'string') {
        problems.add([], 'Must be a string');
        return null;
      }
      if (value.length > ANSWER_LIMITS.password) problems.add([], `Must be at most ${ANSWER_LIMITS.password} characters`);
      if (type === 'PasswordCreatorInput' && [...value].length < ANSWER_LIMITS.passwordCreatorMin) {
        problems.add([], `Must be at least ${ANSWER_LIMITS.passwordCreatorMin} characters`);
      }
      if (problems.any) return null;
      return { input: new PendingPassword(value) };
    },
    fromFields(component, fields, stored) {
      const password = fields.one(fieldName(component));
      // An empty field on a revisited step keeps the stored password.
      if (password === '' && stored) return undefined;
      return component.type === 'PasswordCreatorInput' ? { password, confirmation: fields.one(fieldName(component, 'confirmation')) } : password;
    },
    toAnswer: () => undefined,
  },
  render(component, ctx) {
    if (component.type === 'PasswordInput') {
      return singleInput(component, ctx, (common) => html`<input type="password" ${common} autocomplete="current-password" maxlength="${ANSWER_LIMITS.password}" value="">`);
    }
    const id = domId(component);
    const confirmId = domId(component, 'confirmation');
    const messages = errorsOf(ctx, component.id);
    const confirmMessages = errorsOf(ctx, `${component.id}.confirmation`);
    const placeholder = str(component.content.placeholder);
    const words = pageWords(ctx.form.locale);
    return box(
      component,
      messages.length + confirmMessages.length > 0,
      html`${label(component, id)}
<div class="fl-field"><input type="password" id="${id}" name="${fieldName(component)}" class="fl-input" autocomplete="new-password" minlength="${ANSWER_LIMITS.passwordCreatorMin}" maxlength="${ANSWER_LIMITS.password}"${placeholder ? html` placeholder="${placeholder}"` : ''}${str(component.content.question) ? '' : html` aria-label="${words.password}"`}${component.content.required === true ? ' required' : ''}${describedBy(id, messages)}>${errorText(id, messages)}</div>
<div class="fl-field"><label class="fl-label" for="${confirmId}">${words.repeatPassword}</label><input type="password" id="${confirmId}" name="${fieldName(component, 'confirmation')}" class="fl-input" autocomplete="new-password" maxlength="${ANSWER_LIMITS.password}"${describedBy(confirmId, confirmMessages)}>${errorText(confirmId, confirmMessages)}</div>`,
    );
  },
  graphql: (kit) => {
    const answer = kit.answer('PasswordInputAnswer', 'Answer to PasswordInput / PasswordCreatorInput: stored hashed, nothing readable.');
    return { answers: { PasswordInput: answer, PasswordCreatorInput: answer } };
  },
  // A password answer is never exported.
  export: { cell: () => '' },
  // A password is stored hashed: only whether it was given can be tested.
  conditions: { subject: fieldless(() => ({ kind: 'presence' })), value: () => true },
};
