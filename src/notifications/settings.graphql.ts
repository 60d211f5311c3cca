/** The GraphQL shapes of a form's `notifications` (what generateForm and updateForm take and Form shows). */
import type { FormNotifications, RespondentNotification, TeamNotification } from '../db/json-columns.ts';
import { TEAM_NOTIFICATION_EVENTS } from '../db/json-columns.ts';
import { builder } from '../graphql/builder.ts';
import { NOTIFICATION_LIMITS } from './settings.ts';

const TeamNotificationInput = builder.inputType('TeamNotificationInput', {
  description: 'An e-mail alert to the team about a response.',
  fields: (t) => ({
    to: t.stringList({
      required: true,
      description: `1 to ${NOTIFICATION_LIMITS.maxRecipients} addresses; each gets its own message.`,
    }),
    on: t.stringList({
      description: `The events it is sent on: ${TEAM_NOTIFICATION_EVENTS.join(', ')}. Default: response.finished.`,
    }),
    includeAnswers: t.boolean({
      description: 'Put the answers in the message (files as signed links, passwords never). Default false.',
    }),
    subject: t.string({
      description: "The subject line; default: the form's name after a fixed prefix in the form's language.",
    }),
  }),
});

const RespondentNotificationInput = builder.inputType('RespondentNotificationInput', {
  description: 'A confirmation e-mail to the respondent, sent once the response finishes.',
  fields: (t) => ({
    enabled: t.boolean({ description: 'Default true.' }),
    emailFrom: t.string({
      required: true,
      description: "Where the address comes from: an EmailForm's key, or an IdentityInfo's key and `.emailAddress` or `.workEmailAddress`.",
    }),
    subject: t.string({ required: true }),
    body: t.string({ description: 'The text of the message (plain text; paragraphs separated by blank lines).' }),
    includeAnswers: t.boolean({ description: 'Put the answers below the text. Default false.' }),
  }),
});

export const FormNotificationsInput = builder.inputType('FormNotificationsInput', {
  description: "Who hears of the form's responses by e-mail (docs/notifications.md).",
  fields: (t) => ({
    team: t.field({ type: [TeamNotificationInput], description: `At most ${NOTIFICATION_LIMITS.maxTeamRules}.` }),
    respondent: t.field({ type: RespondentNotificationInput }),
  }),
});

const TeamNotificationRef = builder.objectRef<TeamNotification>('TeamNotification').implement({
  description: 'An e-mail alert to the team.',
  fields: (t) => ({
    to: t.exposeStringList('to'),
    on: t.exposeStringList('on'),
    includeAnswers: t.exposeBoolean('includeAnswers'),
    subject: t.string({ nullable: true, resolve: (rule) => rule.subject ?? null }),
  }),
});

const RespondentNotificationRef = builder.objectRef<RespondentNotification>('RespondentNotification').implement({
  description: 'A confirmation e-mail to the respondent.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    emailFrom: t.exposeString('emailFrom'),
    subject: t.exposeString('subject'),
    body: t.exposeString('body'),
    includeAnswers: t.exposeBoolean('includeAnswers'),
  }),
});

export const FormNotificationsRef = builder.objectRef<FormNotifications>('FormNotifications').implement({
  description: "Who hears of the form's responses by e-mail.",
  fields: (t) => ({
    team: t.field({ type: [TeamNotificationRef], resolve: (settings) => settings.team }),
    respondent: t.field({
      type: RespondentNotificationRef,
      nullable: true,
      resolve: (settings) => settings.respondent ?? null,
    }),
  }),
});
