/**
 * The bodies the v1 REST API answers with, as zod schemas: src/rest/openapi.ts turns them (and the
 * request schemas the adapters validate with) into the OpenAPI document, and the test suite checks every
 * REST response it receives against that document.
 */
import { z } from 'zod';
import { SCOPES } from '../auth/scopes.ts';
import { TEAM_NOTIFICATION_EVENTS } from '../notifications/settings.ts';
import { ANSWER_SHAPES } from '../components/catalogue.ts';

const fieldError = z
  .strictObject({
    message: z.string(),
    path: z.array(z.union([z.string(), z.number().int()])).meta({ description: 'Where the problem is, from the body (or query parameter) root.' }),
  })
  .meta({ id: 'FieldError' });

export const errorBodySchema = z
  .strictObject({
    message: z.string(),
    errors: z.array(fieldError).optional().meta({ description: 'Per-field problems (400 only), all at once.' }),
  })
  .meta({ id: 'Error', description: 'Every error answer: a message, and for 400 the problems with their paths.' });

const isoInstant = z.string().meta({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' });

/**
 * Each answered type's answer as stored, `StoredAnswer.<type>`: the fields its component module declares
 * (`answer.shapes`, src/components/) beside those every answer has.
 */
const storedAnswerSchemas = [...ANSWER_SHAPES].map(([type, shapes]) =>
  z
    // Loose: a client reading answers ignores fields it does not know (a later version may add some).
    .looseObject({
      type: z.literal(type),
      headline: z.string().meta({ description: 'The question text.' }),
      componentShapeVersion: z.string(),
      leadAttribute: z.string().optional().meta({ description: 'The lead attribute this answer sets, if any.' }),
      ...shapes.stored,
    })
    .meta({ id: `StoredAnswer.${type}`, description: `An answer to a ${type}, as stored and listed: the fields of its type (more may be added).` }),
);

/** Each answered type's answer as the public JSON API takes it, `Answer.<type>` (its module's `answer.shapes`). */
export const answerSchemas = [...ANSWER_SHAPES].map(([type, shapes]) =>
  shapes.answer.meta({ id: `Answer.${type}`, description: `The public JSON API's answer to a question of type ${type}: ${shapes.answer.description ?? 'see docs/components.md'}` }),
);

/** The `answers` of the public JSON API's POST and PATCH bodies, by question id. */
export const publicAnswersSchema = z.record(z.string(), z.union([...answerSchemas, z.null()])).meta({
  id: 'PublicAnswers',
  description:
    "The answers of a public JSON API request (`POST /s/{formId}/responses`, `PATCH /s/{formId}/responses/{id}`), by question id: each in its component type's shape (`Answer.<type>`); `null` or `\"\"` takes an answer back; a captcha's answer is its provider's token.",
});

/** The public JSON API (src/public/, docs/public-pages.md): a form's definition as clients render it, starts, updates and views. */
const publicComponentSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The questionId its answers are keyed by.' }),
    key: z.string().nullable(),
    type: z.string().meta({ description: 'The component type (docs/components.md); its answer is `Answer.<type>`.' }),
    content: z.record(z.string(), z.unknown()).meta({ description: "The component's content, in the language asked for." }),
    answerable: z.boolean(),
    required: z.boolean(),
  })
  .meta({ id: 'PublicComponent' });

export const publicDefinitionSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    locale: z.string(),
    language: z.string().optional().meta({ description: 'A multilingual form: the language of these texts (`?lang=`, else Accept-Language, else the default).' }),
    languages: z.array(z.string()).optional().meta({ description: 'A multilingual form: all of its languages, the default first.' }),
    version: z.number().int(),
    hiddenFields: z.array(z.string()),
    variables: z.array(z.looseObject({ name: z.string(), type: z.enum(['number', 'text']) })),
    theme: z.record(z.string(), z.unknown()),
    steps: z.array(
      z.strictObject({
        id: z.string(),
        key: z.string(),
        name: z.string(),
        completion: z.boolean(),
        invalid: z.boolean(),
        logic: z.unknown().meta({ description: "The step's rules (docs/logic.md), or null." }),
        components: z.array(publicComponentSchema),
      }),
    ),
  })
  .meta({
    id: 'PublicFormDefinition',
    description: 'A published form as a client renders it: its steps and components (their ids are the questionIds), hidden fields, logic and theme.',
  });

const publicHiddenFields = z.record(z.string(), z.string()).meta({ description: "Values of the form's hidden fields (names it does not declare are ignored)." });

export const publicStartBodySchema = z
  .strictObject({
    answers: publicAnswersSchema.optional(),
    finished: z.boolean().optional().meta({ description: 'Finish the response: every required question on its path must be answered.' }),
    visitorToken: z.string().optional().meta({ description: "A visitor token an earlier answer gave: the response joins that visitor's lead." }),
    hiddenFields: publicHiddenFields.optional(),
    language: z.string().optional().meta({ description: "A multilingual form: the language the respondent answers in (one of the form's)." }),
  })
  .meta({ id: 'PublicResponseStart' });

export const publicUpdateBodySchema = z.strictObject({ answers: publicAnswersSchema.optional(), finished: z.boolean().optional() }).meta({ id: 'PublicResponseUpdate' });

const publicResponseFields = {
  id: z.string(),
  visitorToken: z.string().nullable().meta({ description: "The respondent's visitor token, for a later response to join the same lead." }),
  finished: z.boolean(),
  status: z.number().int().meta({ description: 'The response status (docs/public-pages.md, Response status).' }),
  formVersion: z.number().int().meta({ description: 'The version of the form the response answers.' }),
  nextStep: z.string().nullable().meta({ description: 'The key of the step to show next; null when none is left.' }),
  recall: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'The values of the recall placeholders in the texts of the step shown next (left out when they hold none).' }),
};

export const publicResponseSchema = z.strictObject(publicResponseFields).meta({ id: 'PublicResponse', description: 'A response of the public JSON API after a submission.' });

export const publicStartedResponseSchema = z
  .strictObject({ ...publicResponseFields, resumeToken: z.string().meta({ description: 'Sent back as `Authorization: Bearer <resumeToken>` to answer more of the response.' }) })
  .meta({ id: 'PublicStartedResponse', description: 'A response the public JSON API started, with the token that answers more of it.' });

export const publicViewBodySchema = z
  .strictObject({ hiddenFields: publicHiddenFields.optional(), referrer: z.string().optional().meta({ description: 'The page the respondent came from (its host is counted).' }) })
  .meta({ id: 'PublicView' });

export const publicViewCountedSchema = z
  .strictObject({ counted: z.boolean().meta({ description: 'False for a bot announcing itself in its User-Agent.' }) })
  .meta({ id: 'PublicViewCounted' });

const storedAnswerSchema = z.discriminatedUnion('type', storedAnswerSchemas as unknown as [(typeof storedAnswerSchemas)[number], ...typeof storedAnswerSchemas]).meta({
  description:
    'The answer as stored: `type` (the component\'s type), `headline`, `componentShapeVersion`, and the fields of its type (`StoredAnswer.<type>`; docs/components.md, "Answers").',
});

const questionResponse = z
  .strictObject({
    questionId: z.string().meta({ description: 'The id of the form component answered.' }),
    key: z.string().optional().meta({ description: "The component's key, when it has one (docs/logic.md)." }),
    response: storedAnswerSchema,
  })
  .meta({ id: 'QuestionResponse' });

const responseObjectSchema = z
  .strictObject({
    id: z.string(),
    createdAt: isoInstant,
    updatedAt: isoInstant,
    dataUpdatedAt: isoInstant.meta({ description: 'Last change of the answers.' }),
    finished: z.boolean().meta({ description: 'true: completed; false: partial.' }),
    status: z
      .union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)])
      .meta({ description: '4 completed, 5 invalid (ended at an invalid step or action; unfinished), 3 dropped off, 2 in progress.' }),
    formId: z.string(),
    version: z.string().meta({ description: 'Response format, "2.0".' }),
    data: z.array(questionResponse),
    meta: z
      .looseObject({
        leadId: z.string(),
        path: z.array(z.string()).optional().meta({ description: 'The keys of the steps the response went through, in order (docs/logic.md).' }),
        hiddenFields: z.record(z.string(), z.string()).optional().meta({ description: 'The declared hidden fields the response brought.' }),
        invalid: z.literal(true).optional().meta({ description: 'Present on an invalid response (status 5).' }),
        variables: z
          .record(z.string(), z.union([z.number(), z.string()]))
          .optional()
          .meta({ description: "The form variables as the rules along the response's path left them (forms with variables; docs/logic.md)." }),
      })
      .meta({ description: 'Metadata; always `leadId`; `path` and `hiddenFields` on every response since they were recorded; also `source` and `userAgent` when known.' }),
    personAttributes: z.strictObject({
      ip: z.string(),
      country: z.string().meta({ description: 'Country code; empty when unknown.' }),
      visitedForm: z.number().int(),
      completedForm: z.number().int(),
    }),
  })
  .meta({ id: 'Response', description: 'A response to a form: its answers, status, lead and where it came from.' });

export const responsesBodySchema = z
  .strictObject({
    data: z.array(responseObjectSchema),
    nextCursor: z.string().nullable().optional().meta({ description: 'Only when paging (`limit` or `after` given): where the next page starts; null on the last page.' }),
  })
  .meta({ id: 'ResponseList' });

export const generateBodySchema = z
  .strictObject({
    success: z.boolean(),
    result: z.strictObject({
      form: z.strictObject({ id: z.string(), url: z.string().meta({ description: 'Public path, `/s/<id>`.' }) }),
    }),
  })
  .meta({ id: 'GeneratedForm' });

// ---------------------------------------------------------------- forms (src/rest/forms.ts)

const formFields = {
  id: z.string(),
  name: z.string(),
  url: z.string().meta({ description: 'Public path, `/s/<id>`: the same for every version.' }),
  status: z.enum(['draft', 'published', 'closed']),
  version: z.number().int().meta({ description: "The current version of the form's definition: 1 when created, one more with each update." }),
  createdAt: isoInstant,
  updatedAt: isoInstant.meta({ description: 'Last change of the form (its definition or its state).' }),
};

export const formListItemSchema = z
  .strictObject(formFields)
  .meta({ id: 'FormListItem', description: 'A form as the listing shows it (its definition: `GET /api/v1/forms/{formId}`).' });

export const formListBodySchema = z
  .strictObject({
    data: z.array(formListItemSchema),
    nextCursor: z.string().nullable().meta({ description: 'Where the next (older) page starts; null on the last page.' }),
  })
  .meta({ id: 'FormList' });

/** A text as a definition shows it: a string, or one per language when it is translated. */
const definitionText = z
  .union([z.string(), z.record(z.string(), z.string())])
  .meta({ description: 'A string; in a translated multilingual form, one text per language: `{"en": "Contact", "de": "Kontakt"}`.' });

const storedStepSchema = z
  .looseObject({
    id: z.string().meta({ description: 'Stable id; give it back in an update to keep the step.' }),
    name: definitionText,
    components: z.array(
      z.looseObject({
        id: z.string().meta({ description: 'Stable id: the questionId of its answers; give it back in an update to keep it.' }),
        type: z.string(),
        content: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({ id: 'FormStep', description: 'A step as stored: its id, name and components (ids, types, normalised content).' });

/** A form's notifications as stored (docs/notifications.md): what generate and PATCH take, defaults filled in. */
const storedNotificationsSchema = z
  .strictObject({
    team: z.array(
      z.strictObject({
        to: z.array(z.string()),
        on: z.array(z.enum(TEAM_NOTIFICATION_EVENTS)),
        includeAnswers: z.boolean(),
        subject: z.string().optional(),
      }),
    ),
    respondent: z.strictObject({ enabled: z.boolean(), emailFrom: z.string(), subject: z.string(), body: z.string(), includeAnswers: z.boolean() }).optional(),
  })
  .nullable()
  .meta({ id: 'FormNotifications', description: 'Who hears of its responses by e-mail; null: nobody.' });

export const formBodySchema = z
  .strictObject({
    data: z
      .strictObject({
        ...formFields,
        name: definitionText,
        hiddenFields: z.array(z.string()).meta({ description: 'Names of the values respondents bring in the URL or through the JSON API.' }),
        variables: z
          .array(z.strictObject({ name: z.string(), type: z.enum(['number', 'text']), initial: z.union([z.number(), z.string()]) }))
          .meta({ description: 'Values the rules calculate along a response (docs/logic.md).' }),
        limits: z
          .strictObject({
            maxResponses: z.number().int().nullable(),
            opensAt: isoInstant.nullable(),
            closesAt: isoInstant.nullable(),
            closedMessage: definitionText.nullable(),
            notYetOpenMessage: definitionText.nullable(),
          })
          .nullable()
          .meta({ description: 'When the form takes responses and how many; null: always, without a limit.' }),
        finishedResponses: z.number().int().meta({ description: 'Its finished responses: what `limits.maxResponses` counts.' }),
        quotas: z
          .array(z.strictObject({ key: z.string(), condition: z.unknown(), limit: z.number().int(), action: z.unknown(), count: z.number().int() }))
          .meta({ description: 'Its quotas as `quotas` takes them, each with the finished responses counted toward it.' }),
        locale: z.string().meta({ description: "The language of the page's own words (a BCP 47 tag; docs/public-pages.md, Languages)." }),
        languages: z
          .strictObject({ default: z.string(), others: z.array(z.string()) })
          .optional()
          .meta({ description: "A multilingual form's languages (docs/languages.md); left out: one language, `locale`'s." }),
        allowAnotherResponse: z.boolean().meta({ description: 'Whether the final screen offers "Submit another response".' }),
        steps: z.array(storedStepSchema),
        notifications: storedNotificationsSchema,
      })
      .meta({ id: 'Form', description: "A form and its current version's definition: what PATCH takes back (steps and components with their ids)." }),
  })
  .meta({ id: 'FormBody' });

export const updatedFormBodySchema = z
  .strictObject({
    success: z.boolean(),
    result: z.strictObject({
      form: z.strictObject({
        id: z.string(),
        url: z.string().meta({ description: 'Public path, `/s/<id>`: it never changes.' }),
        version: z.number().int().meta({ description: 'The version this update made.' }),
      }),
    }),
  })
  .meta({ id: 'UpdatedForm' });

export const translationsBodySchema = z
  .strictObject({
    data: z.array(
      z
        .strictObject({
          locale: z.string(),
          translated: z.number().int().meta({ description: 'Texts with a text in this language.' }),
          total: z.number().int().meta({ description: 'Texts of the form.' }),
          missing: z.array(z.string()).meta({ description: 'Stable paths of the texts without one (shown in the default language).' }),
        })
        .meta({ id: 'TranslationStatus' }),
    ),
  })
  .meta({ id: 'Translations', description: 'Every language of a form, the default first, with how complete it is.' });

export const translationDocumentSchema = z
  .record(z.string(), z.string())
  .meta({ id: 'TranslationDocument', description: 'One language\'s texts: stable path → text, e.g. `{"steps.contact.components.email.question": "Ihre E-Mail?"}`.' });

/** The schemas the document lists under components.schemas (by their `id`). */
export const formStateBodySchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(['published', 'closed']).meta({ description: "The form's state after the request." }),
  })
  .meta({ id: 'FormState', description: 'A form closed to new responses, or reopened (docs/rest.md, "Form states").' });

// ---------------------------------------------------------------- API keys (src/rest/keys.ts)

export const apiKeySchema = z
  .strictObject({
    id: z.string().meta({ description: 'The public prefix of the key: revoke it by this id.' }),
    environmentId: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'How the key starts (`fl_<id>_`).' }),
    scopes: z.array(z.enum(SCOPES)).meta({ description: 'What the key may do (every scope for a key made without scopes).' }),
    fullAccess: z.boolean().meta({ description: 'Made without scopes: it holds every scope, including ones added later.' }),
    expiresAt: isoInstant.nullable().meta({ description: 'From this instant the key is invalid; null: never.' }),
    formIds: z.array(z.string()).nullable().meta({ description: 'The forms the key is limited to (any other is, to it, one that does not exist); null: every form.' }),
    createdAt: isoInstant,
    lastUsedAt: isoInstant.nullable().meta({ description: 'When the key last authenticated a request (to within about a minute).' }),
    revoked: z.boolean(),
    revokedAt: isoInstant.nullable(),
  })
  .meta({ id: 'ApiKey', description: 'An API key, never its secret (docs/keys.md).' });

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().meta({ description: 'The secret key, `fl_<id>_<secret>`: shown only here.' }) })
  .meta({ id: 'CreatedApiKey' });

export const apiKeyListSchema = z.strictObject({ data: z.array(apiKeySchema) }).meta({ id: 'ApiKeyList' });

// ---------------------------------------------------------------- webhooks (src/rest/webhooks.ts)

export const webhookEndpointSchema = z
  .strictObject({
    id: z.string(),
    environmentId: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    formIds: z.array(z.string()).nullable().meta({ description: 'null: every form of the environment.' }),
    enabled: z.boolean(),
    disabledReason: z.enum(['manual', 'failing']).nullable(),
    failedDeliveriesInARow: z.number().int(),
    format: z.enum(['standard', 'slack']).meta({ description: '`slack`: `{text, blocks}` for Slack and Mattermost incoming webhooks (docs/webhooks.md).' }),
    includeAnswers: z.boolean().meta({ description: '`slack` only: the answers are in the message.' }),
    createdAt: isoInstant,
    updatedAt: isoInstant,
  })
  .meta({ id: 'WebhookEndpoint', description: 'Where events of an environment are POSTed, signed per Standard Webhooks.' });

export const createdWebhookEndpointSchema = webhookEndpointSchema
  .extend({ secret: z.string().meta({ description: 'The `whsec_…` signing secret: shown only here.' }) })
  .meta({ id: 'CreatedWebhookEndpoint' });

export const webhookEndpointListSchema = z.strictObject({ data: z.array(webhookEndpointSchema) }).meta({ id: 'WebhookEndpointList' });

export const deletedWebhookEndpointSchema = z.strictObject({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedWebhookEndpoint' });

const webhookAttemptSchema = z
  .strictObject({
    attempt: z.number().int(),
    startedAt: isoInstant,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    succeeded: z.boolean(),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDeliverySchema = z
  .strictObject({
    id: z.string().meta({ description: 'The `webhook-id` header: the same on every attempt and re-send.' }),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'delivering', 'succeeded', 'failed']),
    attemptCount: z.number().int(),
    nextAttemptAt: isoInstant.nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: isoInstant,
    updatedAt: isoInstant,
    attempts: z.array(webhookAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryListSchema = z.strictObject({ data: z.array(webhookDeliverySchema) }).meta({ id: 'WebhookDeliveryList' });

// ---------------------------------------------------------------- e-mail notifications (src/rest/notifications.ts)

export const notificationDeliverySchema = z
  .strictObject({
    id: z.string(),
    formId: z.string(),
    responseId: z.string(),
    kind: z.enum(['team', 'respondent']),
    trigger: z.string().meta({ description: 'response.finished or response.invalid.' }),
    recipient: z.string().meta({ description: 'The address, masked: `a***@example.com`.' }),
    status: z.enum(['pending', 'sending', 'sent', 'failed', 'suppressed', 'waiting-for-smtp']),
    attempts: z.number().int(),
    lastReply: z.string().nullable().meta({ description: "The SMTP server's last reply, or the connection error." }),
    nextAttemptAt: isoInstant.nullable(),
    sentAt: isoInstant.nullable(),
    createdAt: isoInstant,
    updatedAt: isoInstant,
  })
  .meta({ id: 'NotificationDelivery' });

export const notificationDeliveryListSchema = z
  .strictObject({ data: z.array(notificationDeliverySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'NotificationDeliveryList' });

// ---------------------------------------------------------------- privacy (src/rest/privacy.ts)

export const deletedResponseSchema = z.strictObject({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedResponse' });

export const deletedResponsesSchema = z
  .strictObject({
    deletedCount: z.number().int().meta({ description: 'Responses deleted.' }),
    webhookEventsDeleted: z.number().int().meta({ description: 'Webhook events (with their pending deliveries) deleted with them.' }),
  })
  .meta({ id: 'DeletedResponses' });

const erasureSchema = z
  .strictObject({
    id: z.string(),
    environmentId: z.string(),
    leadId: z.string().meta({ description: "The erased lead's id (a random id that no longer leads anywhere)." }),
    erasedAt: isoInstant,
    actorKind: z.enum(['apiKey', 'admin']),
    actorKeyId: z.string().nullable().meta({ description: 'The API key that asked; null for the admin token.' }),
    responsesDeleted: z.number().int(),
    webhookEventsDeleted: z.number().int(),
  })
  .meta({ id: 'Erasure', description: 'The record that a person was erased; it holds no personal data.' });

export const eraseLeadBodySchema = z
  .strictObject({
    erased: z.boolean(),
    alreadyErased: z.boolean().meta({ description: 'Erased by an earlier call: nothing was deleted now.' }),
    erasure: erasureSchema.nullable(),
  })
  .meta({ id: 'EraseLeadResult' });

const auditEntrySchema = z
  .strictObject({
    id: z.string(),
    environmentId: z.string(),
    at: isoInstant,
    actorKind: z.enum(['apiKey', 'admin', 'system']),
    actorKeyId: z.string().nullable(),
    action: z.string().meta({ description: 'e.g. `form.generate`, `responses.delete`, `lead.erase` (docs/privacy.md, "Audit log").' }),
    targetIds: z.array(z.string()),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  })
  .meta({ id: 'AuditEntry', description: 'One administrative action: ids and counts, never secrets or personal data.' });

export const auditLogBodySchema = z
  .strictObject({
    data: z.array(auditEntrySchema),
    nextCursor: z.string().nullable().meta({ description: 'Where the next (older) page starts; null on the last page.' }),
  })
  .meta({ id: 'AuditLog' });

const captchaKeysSchema = z
  .strictObject({
    siteKey: z.string().nullable().meta({ description: "The environment's own site key; null: the server's applies." }),
    secretKeySet: z.boolean().meta({ description: 'Whether the environment has a secret key of its own. The key itself is never returned.' }),
  })
  .meta({ id: 'CaptchaKeys' });

export const environmentSettingsSchema = z
  .strictObject({
    id: z.string(),
    ipStorage: z.enum(['full', 'truncated', 'none']),
    retentionDays: z.number().int().nullable(),
    turnstile: captchaKeysSchema,
    recaptcha: captchaKeysSchema,
    smtp: z.strictObject({ url: z.string().nullable(), from: z.string().nullable(), passwordSet: z.boolean() }).meta({
      description: "The environment's own SMTP server for e-mail notifications (the password is never shown); nulls: the server's SMTP_URL and MAIL_FROM (docs/notifications.md).",
    }),
    embedOrigins: z.array(z.string()).nullable().meta({
      description: 'Sites that may embed the environment\'s forms (origins, or ["*"] for any site; [] for none); null: the server\'s FRAME_ANCESTORS applies (docs/embedding.md).',
    }),
  })
  .meta({ id: 'EnvironmentSettings', description: 'An environment\'s settings: privacy, its own captcha keys (README "Captchas") and who may embed its forms.' });

const insightsCounts = {
  views: z.number().int().meta({ description: 'Views of the first step.' }),
  starts: z.number().int().meta({ description: 'Responses started.' }),
  finishes: z.number().int().meta({ description: 'Responses completed.' }),
};
const insightsRowSchema = z
  .strictObject({ value: z.string().meta({ description: "The dimension's value; '' is none (no referrer)." }), ...insightsCounts })
  .meta({ id: 'InsightsBreakdownRow' });

export const insightsBodySchema = z
  .strictObject({
    data: z
      .strictObject({
        since: isoInstant.nullable().meta({ description: 'The first instant counted, as read (a date is its midnight in timeZone); null: from the start.' }),
        until: isoInstant.nullable().meta({ description: 'The instant the range ends (excluded); null: up to now.' }),
        timeZone: z.string(),
        groupBy: z.enum(['day', 'week', 'month']),
        ...insightsCounts,
        invalid: z.number().int().meta({ description: 'Responses that ended at an invalid step or action.' }),
        startRate: z.number().nullable().meta({ description: 'starts / views; null without views.' }),
        completionRate: z.number().nullable().meta({ description: 'finishes / starts; null without starts.' }),
        timeToComplete: z
          .strictObject({ median: z.number().int(), p90: z.number().int() })
          .nullable()
          .meta({ description: 'Seconds from start to finish (median, 90th percentile); null without finishes.' }),
        steps: z
          .array(
            z.strictObject({
              key: z.string(),
              name: z.string(),
              reached: z.number().int(),
              leftHere: z.number().int().meta({ description: 'Unfinished, not invalid responses whose next step it is.' }),
              dropOffRate: z.number().nullable().meta({ description: 'leftHere / reached; null when none reached it.' }),
            }),
          )
          .meta({ description: "The form's steps (current version), in order; empty environment-wide." }),
        series: z.array(z.strictObject({ period: z.string().meta({ description: "The period's first day (YYYY-MM-DD) in timeZone." }), ...insightsCounts })),
        devices: z.array(insightsRowSchema),
        referrers: z.array(insightsRowSchema).meta({ description: 'The 20 most viewed referrer hosts.' }),
        languages: z.array(insightsRowSchema),
        hiddenFields: z.array(z.strictObject({ name: z.string(), values: z.array(insightsRowSchema).meta({ description: 'The 20 most viewed values.' }) })),
      })
      .meta({ id: 'Insights', description: 'Views, conversion, drop-off and time to complete (docs/insights.md).' }),
  })
  .meta({ id: 'InsightsBody' });

// ---------------------------------------------------------------- share links (src/rest/share-links.ts)

export const shareLinkSchema = z
  .strictObject({
    id: z.string(),
    formId: z.string(),
    includeTextAnswers: z.boolean().meta({ description: 'Whether the page lists free-text answers (ShortInput, LongInput).' }),
    expiresAt: isoInstant.nullable().meta({ description: 'From this instant the link opens nothing; null: until revoked.' }),
    createdAt: isoInstant,
  })
  .meta({ id: 'ShareLink' });

export const createdShareLinkSchema = shareLinkSchema
  .extend({ url: z.string().meta({ description: 'The results page, `/r/<token>` (relative to the server): shown only here.' }) })
  .meta({ id: 'CreatedShareLink' });

export const shareLinkListSchema = z.strictObject({ data: z.array(shareLinkSchema) }).meta({ id: 'ShareLinkList' });

export const revokedShareLinkSchema = z.strictObject({ id: z.string(), formId: z.string(), revoked: z.literal(true) }).meta({ id: 'RevokedShareLink' });

export const CONTRACT_SCHEMAS = [
  publicAnswersSchema,
  publicDefinitionSchema,
  publicStartBodySchema,
  publicUpdateBodySchema,
  publicResponseSchema,
  publicStartedResponseSchema,
  publicViewBodySchema,
  publicViewCountedSchema,
  shareLinkSchema,
  createdShareLinkSchema,
  shareLinkListSchema,
  revokedShareLinkSchema,
  insightsBodySchema,
  errorBodySchema,
  responseObjectSchema,
  responsesBodySchema,
  generateBodySchema,
  formStateBodySchema,
  formListBodySchema,
  formBodySchema,
  updatedFormBodySchema,
  translationsBodySchema,
  translationDocumentSchema,
  webhookEndpointSchema,
  createdWebhookEndpointSchema,
  webhookEndpointListSchema,
  deletedWebhookEndpointSchema,
  webhookDeliverySchema,
  webhookDeliveryListSchema,
  notificationDeliverySchema,
  notificationDeliveryListSchema,
  deletedResponseSchema,
  deletedResponsesSchema,
  eraseLeadBodySchema,
  auditLogBodySchema,
  environmentSettingsSchema,
  apiKeySchema,
  createdApiKeySchema,
  apiKeyListSchema,
] as const;
