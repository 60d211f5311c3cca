/**
 * GraphQL of the personal data lifecycle: deleting responses (one, or by filter), erasing a lead,
 * the settings of environments (IP storage, retention, captcha keys, embedding) and forms (retention), and the
 * retention job's last run.
 */
import { and, eq } from 'drizzle-orm';
import { actingEnvironment, readScope, requireAdmin, rowEnvironment } from '../auth/auth.service.ts';
import { loadLeads } from '../leads/leads.service.ts';
import { formLimitOf, requireFormReach, requireWholeEnvironment } from '../auth/form-limits.ts';
import { actorOf, recordAudit } from '../audit/audit.service.ts';
import { erasures, forms, leads, responses } from '../db/schema.ts';
import { CaptchaKeysInput, EnvironmentRef, IpStorageEnum, SmtpSettingsInput } from '../environments/environments.graphql.ts';
import { notFound, type FieldError } from '../errors.ts';
import { FormRef } from '../forms/forms.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { invalidArguments } from '../graphql/pagination.ts';
import { captchaKeyringOf, type GraphQLContext } from '../graphql/context.ts';
import { ResponseDateFieldEnum } from '../responses/responses.graphql.ts';
import { dateRangeProblems } from '../responses/responses.service.ts';
import { deleteResponses } from './deletion.service.ts';
import { eraseLead, eraseLeadByEmail, type Erasure, type ErasureOutcome } from './erasure.service.ts';
import { lastJobRun, RETENTION_JOB, type JobRun } from './retention.service.ts';
import { MAX_RETENTION_DAYS, setFormRetention, updateEnvironmentSettings } from './settings.service.ts';

// ---------------------------------------------------------------- settings

builder.objectField(FormRef, 'retentionDays', (t) =>
  t.int({
    nullable: true,
    description: "This form's retention in days, overriding its environment's; null: the environment's applies.",
    resolve: (form) => form.retentionDays ?? null,
  }),
);

const EnvironmentSettingsInput = builder.inputType('EnvironmentSettingsInput', {
  description: 'Fields left out stay as they are.',
  fields: (t) => ({
    ipStorage: t.field({ type: IpStorageEnum }),
    retentionDays: t.int({ description: `1 to ${MAX_RETENTION_DAYS}; null: keep responses indefinitely.` }),
    turnstile: t.field({ type: CaptchaKeysInput, description: "The environment's own Cloudflare Turnstile keys (TurnstileWidget)." }),
    recaptcha: t.field({ type: CaptchaKeysInput, description: "The environment's own Google reCAPTCHA keys (Recaptcha)." }),
    smtp: t.field({ type: SmtpSettingsInput, description: "The environment's own SMTP server and sender for e-mail notifications." }),
    embedOrigins: t.stringList({
      description:
        'Sites that may embed the environment\'s forms in a frame: origins such as `https://www.example.com` (scheme, host and optional port, no path), or `["*"]` for any site; `[]`: no other site. null: the server\'s FRAME_ANCESTORS applies again.',
    }),
  }),
});

/** A provider's keys as the service takes them: a field left out is undefined, null removes. */
const captchaKeysOf = (keys: { siteKey?: string | null; secretKey?: string | null } | null | undefined) =>
  keys == null ? undefined : { ...(keys.siteKey !== undefined ? { siteKey: keys.siteKey } : {}), ...(keys.secretKey !== undefined ? { secretKey: keys.secretKey } : {}) };

builder.mutationField('updateEnvironmentSettings', (t) =>
  t.field({
    authScopes: { scope: 'settings:manage' },
    type: EnvironmentRef,
    description:
      "Changes an environment's settings: privacy (IP storage, retention), its own captcha keys and who may embed its forms (recorded in the audit log; a secret key only as set or removed).",
    args: {
      environmentId: t.arg.id({ description: 'Required with the admin token; with an API key, its own environment (the default).' }),
      input: t.arg({ type: EnvironmentSettingsInput, required: true }),
    },
    resolve: (_, { environmentId, input }, ctx) =>
      updateEnvironmentSettings(
        ctx.db,
        actingEnvironment(ctx.principal, environmentId),
        {
          ipStorage: input.ipStorage ?? undefined,
          retentionDays: input.retentionDays,
          turnstile: captchaKeysOf(input.turnstile),
          recaptcha: captchaKeysOf(input.recaptcha),
          embedOrigins: input.embedOrigins,
          smtp: input.smtp
            ? {
                ...(input.smtp.url !== undefined ? { url: input.smtp.url } : {}),
                ...(input.smtp.password !== undefined ? { password: input.smtp.password } : {}),
                ...(input.smtp.from !== undefined ? { from: input.smtp.from } : {}),
              }
            : undefined,
        },
        actorOf(ctx.principal),
        captchaKeyringOf(ctx).box,
      ),
  }),
);

const formEnvironment = async (ctx: GraphQLContext, id: string) =>
  (await ctx.db.select({ environmentId: forms.environmentId }).from(forms).where(eq(forms.id, id)))[0]?.environmentId;

builder.mutationField('setFormRetention', (t) =>
  t.field({
    authScopes: { scope: 'forms:write' },
    type: FormRef,
    description: "Sets a form's own retention in days (null: its environment's applies).",
    args: { formId: t.arg.id({ required: true }), retentionDays: t.arg.int({ required: false }) },
    resolve: async (_, args, ctx) => {
      const formId = String(args.formId);
      requireFormReach(ctx.principal, formId);
      const environmentId = await rowEnvironment(ctx.principal, () => formEnvironment(ctx, formId), 'Form not found');
      return setFormRetention(ctx.db, environmentId, formId, args.retentionDays ?? null, actorOf(ctx.principal));
    },
  }),
);

// ---------------------------------------------------------------- deleting responses

const DeleteResponsePayload = builder.objectRef<{ id: string }>('DeleteResponsePayload').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.boolean({ resolve: () => true }) }),
});

builder.mutationField('deleteResponse', (t) =>
  t.field({
    authScopes: { scope: 'responses:delete' },
    type: DeleteResponsePayload,
    description:
      "Deletes one response for good, with its webhook events (pending deliveries included) and files. `Response not found` (NOT_FOUND) when it is not a response of the caller's environment.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, args, ctx) => {
      const id = String(args.id);
      const [row] = await ctx.db.select({ e: responses.environmentId, formId: responses.formId }).from(responses).where(eq(responses.id, id));
      requireFormReach(ctx.principal, row?.formId, 'Response not found');
      const environmentId = await rowEnvironment(ctx.principal, () => Promise.resolve(row?.e), 'Response not found');
      const { deleted, webhookEvents } = await deleteResponses(ctx.db, { environmentId, ids: [id] }, { files: ctx.fileStorage });
      if (deleted === 0) throw notFound('Response not found');
      await recordAudit(ctx.db, { environmentId, actor: actorOf(ctx.principal), action: 'response.delete', targetIds: [id], details: { webhookEventsDeleted: webhookEvents } });
      return { id };
    },
  }),
);

const DeleteResponsesFilter = builder.inputType('DeleteResponsesFilter', {
  description: 'Which responses to delete: all conditions given must hold, and at least one must be given.',
  fields: (t) => ({
    formId: t.id({ description: "Only this form's responses (a deleted form's too)." }),
    since: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is at or after this instant.' }),
    until: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is before this instant.' }),
    dateField: t.field({ type: ResponseDateFieldEnum, defaultValue: 'createdAt', description: 'Defaults to CREATED_AT.' }),
    partialOnly: t.boolean({ defaultValue: false, description: 'Only unfinished (partial) responses.' }),
  }),
});

const DeleteResponsesPayload = builder.objectRef<{ deletedCount: number; webhookEventsDeleted: number }>('DeleteResponsesPayload').implement({
  fields: (t) => ({
    deletedCount: t.exposeInt('deletedCount', { description: 'Responses deleted.' }),
    webhookEventsDeleted: t.exposeInt('webhookEventsDeleted', { description: 'Webhook events (with their pending deliveries) deleted with them.' }),
  }),
});

/** `deleteResponses` of the forms the caller reaches: one form's, or each of a key's forms when it is limited to some. */
async function deleteReachableResponses(ctx: GraphQLContext, input: Omit<Parameters<typeof deleteResponses>[1], 'ids'>) {
  const limit = formLimitOf(ctx.principal);
  if (input.formId !== undefined || limit === null) return deleteResponses(ctx.db, input, { files: ctx.fileStorage });
  const total = { deleted: 0, webhookEvents: 0 };
  for (const formId of limit) {
    const result = await deleteResponses(ctx.db, { ...input, formId }, { files: ctx.fileStorage });
    total.deleted += result.deleted;
    total.webhookEvents += result.webhookEvents;
  }
  return total;
}

builder.mutationField('deleteResponses', (t) =>
  t.field({
    authScopes: { scope: 'responses:delete' },
    type: DeleteResponsesPayload,
    description:
      'Deletes every response of the environment matching the filter, in batches of a few hundred (each its own short transaction, so submissions continue meanwhile), with their webhook events and files.',
    args: {
      environmentId: t.arg.id({ description: 'Required with the admin token; with an API key, its own environment (the default).' }),
      filter: t.arg({ type: DeleteResponsesFilter, required: true }),
    },
    resolve: async (_, { environmentId: named, filter }, ctx) => {
      const environmentId = actingEnvironment(ctx.principal, named);
      const errors: FieldError[] = [];
      const formId = filter.formId === null || filter.formId === undefined ? undefined : String(filter.formId);
      const since = filter.since ?? undefined;
      const until = filter.until ?? undefined;
      const partialOnly = filter.partialOnly ?? false;
      if (formId === undefined && since === undefined && until === undefined && !partialOnly) {
        errors.push({ message: 'Give at least one of formId, since, until or partialOnly', path: ['filter'] });
      }
      errors.push(...dateRangeProblems({ since, until }, (bound) => ['filter', bound]));
      if (errors.length > 0) throw invalidArguments(errors);
      if (formId !== undefined) {
        requireFormReach(ctx.principal, formId);
        const [form] = await ctx.db
          .select({ id: forms.id })
          .from(forms)
          .where(and(eq(forms.id, formId), eq(forms.environmentId, environmentId)));
        if (!form) throw notFound('Form not found');
      }
      const dateField = filter.dateField ?? 'createdAt';
      const result = await deleteReachableResponses(ctx, { environmentId, formId, since, until, dateField, partialOnly });
      const details: Record<string, string | number | boolean | null> = { deleted: result.deleted, webhookEventsDeleted: result.webhookEvents, dateField, partialOnly };
      if (since) details.since = since.toISOString();
      if (until) details.until = until.toISOString();
      await recordAudit(ctx.db, { environmentId, actor: actorOf(ctx.principal), action: 'responses.delete', targetIds: formId ? [formId] : [], details });
      return { deletedCount: result.deleted, webhookEventsDeleted: result.webhookEvents };
    },
  }),
);

// ---------------------------------------------------------------- erasure

const ErasureRef = builder.objectRef<Erasure>('Erasure').implement({
  description: 'The record that a person was erased: when, by whom, how many rows. It holds no personal data.',
  fields: (t) => ({
    id: t.exposeID('id'),
    environmentId: t.exposeID('environmentId'),
    leadId: t.exposeID('leadId', { description: "The erased lead's id (a random id that no longer leads anywhere)." }),
    erasedAt: t.expose('createdAt', { type: 'DateTime' }),
    actorKind: t.exposeString('actorKind', { description: '`apiKey` or `admin`.' }),
    actorKeyId: t.exposeID('actorKeyId', { nullable: true, description: 'The API key that asked; null for the admin token.' }),
    responsesDeleted: t.exposeInt('responsesDeleted'),
    webhookEventsDeleted: t.exposeInt('webhookEventsDeleted', { description: 'Webhook events (with their pending deliveries) that carried the responses.' }),
  }),
});

const EraseLeadPayload = builder.objectRef<{ outcome: ErasureOutcome | null }>('EraseLeadPayload').implement({
  description: 'What an erasure did. `erased` false: there was no such person (nothing to do, or erased before by e-mail).',
  fields: (t) => ({
    erased: t.boolean({ resolve: ({ outcome }) => outcome !== null }),
    alreadyErased: t.boolean({ description: 'The lead was erased by an earlier call; nothing was deleted now.', resolve: ({ outcome }) => outcome?.alreadyErased ?? false }),
    erasure: t.field({ type: ErasureRef, nullable: true, resolve: ({ outcome }) => outcome?.erasure ?? null }),
  }),
});

/** The environment of a lead, or of an erased lead's record (so erasing again finds it). */
async function leadEnvironment(ctx: GraphQLContext, id: string): Promise<string | undefined> {
  const [lead] = await ctx.db.select({ environmentId: leads.environmentId }).from(leads).where(eq(leads.id, id));
  if (lead) return lead.environmentId;
  const [erased] = await ctx.db.select({ environmentId: erasures.environmentId }).from(erasures).where(eq(erasures.leadId, id)).limit(1);
  return erased?.environmentId;
}

builder.mutationField('eraseLead', (t) =>
  t.field({
    authScopes: { scope: 'responses:delete' },
    type: EraseLeadPayload,
    description:
      'Erases a person: the lead, every response attached to it in every form of the environment, their files and webhook events (pending deliveries included). Give `id`, or `email` (looked up case-insensitively in the environment). Idempotent.',
    args: {
      id: t.arg.id({ description: "The lead id (a response's `leadId`)." }),
      email: t.arg.string({ description: "The lead's e-mail address." }),
      environmentId: t.arg.id({ description: 'With `email` and the admin token: the environment to look in.' }),
    },
    resolve: async (_, args, ctx) => {
      const id = args.id === null || args.id === undefined ? undefined : String(args.id);
      const email = args.email ?? undefined;
      if ((id === undefined) === (email === undefined)) throw invalidArguments([{ message: 'Give exactly one of id or email', path: [id === undefined ? 'id' : 'email'] }]);
      // A person's responses span every form of the environment; a lead none of the key's forms knows is one that does not exist.
      if (id !== undefined && formLimitOf(ctx.principal) !== null && !(await loadLeads(ctx.db, readScope(ctx.principal), [id], formLimitOf(ctx.principal)))[0])
        throw notFound('Lead not found');
      requireWholeEnvironment(ctx.principal, 'erase people');
      const actor = actorOf(ctx.principal);
      if (email !== undefined) {
        if (email.length > 320) throw invalidArguments([{ message: 'email must be at most 320 characters', path: ['email'] }]);
        return { outcome: await eraseLeadByEmail(ctx.db, { environmentId: actingEnvironment(ctx.principal, args.environmentId), email, actor, files: ctx.fileStorage }) };
      }
      const environmentId =
        ctx.principal.kind === 'admin' && (args.environmentId === null || args.environmentId === undefined)
          ? await rowEnvironment(ctx.principal, () => leadEnvironment(ctx, id!), 'Lead not found')
          : actingEnvironment(ctx.principal, args.environmentId);
      return { outcome: await eraseLead(ctx.db, { environmentId, leadId: id!, actor, files: ctx.fileStorage }) };
    },
  }),
);

// ---------------------------------------------------------------- the retention job

const JobRunRef = builder.objectRef<JobRun>('JobRun').implement({
  description: 'The last run of a scheduled job (it runs on one node per interval).',
  fields: (t) => ({
    name: t.exposeString('name'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    status: t.exposeString('status', { description: '`running`, `succeeded` or `failed`.' }),
    responsesDeleted: t.exposeInt('responsesDeleted'),
    formsPurged: t.exposeInt('formsPurged', { description: 'Deleted forms removed for good after their grace period.' }),
    error: t.exposeString('error', { nullable: true }),
    node: t.exposeString('node', { description: 'The node (host:pid) that ran it.' }),
  }),
});

builder.queryField('retentionStatus', (t) =>
  t.field({
    authScopes: { admin: true },
    type: JobRunRef,
    nullable: true,
    description: 'Admin token only: the last run of the retention job (across all environments); null before the first.',
    resolve: async (_, __, ctx) => {
      requireAdmin(ctx.principal);
      return (await lastJobRun(ctx.db, RETENTION_JOB)) ?? null;
    },
  }),
);
