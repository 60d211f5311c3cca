/**
 * The delivery log of a form's e-mails: a newest-first keyset listing (one row per recipient address,
 * the address masked), and a retry of a failed or suppressed delivery.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { notificationDeliveries, type NotificationKind, type NotificationStatus } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { afterPosition, microsOf, newestFirst, pageOf, type KeysetPosition, type Page } from '../keyset.ts';

/** What the log shows: a pending delivery with no SMTP server to go through waits for one. */
export const LISTED_STATUSES = ['pending', 'sending', 'sent', 'failed', 'suppressed', 'waiting-for-smtp'] as const satisfies readonly (NotificationStatus | 'waiting-for-smtp')[];
export type ListedStatus = (typeof LISTED_STATUSES)[number];

/** The environment of a delivery, if there is one (GraphQL checks it is the caller's). */
export async function notificationEnvironment(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ environmentId: notificationDeliveries.environmentId }).from(notificationDeliveries).where(eq(notificationDeliveries.id, id));
  return row?.environmentId;
}

/** The form of delivery `id`, or undefined when there is no such delivery. */
export async function notificationForm(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ formId: notificationDeliveries.formId }).from(notificationDeliveries).where(eq(notificationDeliveries.id, id));
  return row?.formId ?? undefined;
}

export interface ListedDelivery {
  id: string;
  position: string;
  formId: string;
  responseId: string;
  kind: NotificationKind;
  trigger: string;
  recipient: string;
  status: ListedStatus;
  attempts: number;
  lastReply: string | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Seconds the oldest due pending delivery has waited (the partial due index finds it), 0 when none is due. */
export async function oldestDueEmailSeconds(db: Db): Promise<number> {
  const [row] = await db
    .select({
      age: sql<number | string | null>`extract(epoch from now() - min(${notificationDeliveries.nextAttemptAt}))`,
    })
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.status, 'pending'), sql`${notificationDeliveries.nextAttemptAt} <= now()`));
  return row?.age === null || row?.age === undefined ? 0 : Math.max(0, Number(row.age));
}

/** `ada@example.com` → `a***@example.com`: enough to recognise, not to read back. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

const columns = {
  id: notificationDeliveries.id,
  position: microsOf(notificationDeliveries.createdAt),
  formId: notificationDeliveries.formId,
  responseId: notificationDeliveries.responseId,
  kind: notificationDeliveries.kind,
  trigger: notificationDeliveries.trigger,
  recipient: notificationDeliveries.recipient,
  status: notificationDeliveries.status,
  attempts: notificationDeliveries.attempts,
  lastReply: notificationDeliveries.lastReply,
  nextAttemptAt: notificationDeliveries.nextAttemptAt,
  sentAt: notificationDeliveries.sentAt,
  createdAt: notificationDeliveries.createdAt,
  updatedAt: notificationDeliveries.updatedAt,
};

type Row = {
  [K in keyof typeof columns]: K extends 'position' ? string : (typeof notificationDeliveries.$inferSelect)[Exclude<K, 'position'>];
};

function listed(row: Row, smtpConfigured: boolean): ListedDelivery {
  const status: ListedStatus = row.status === 'pending' && !smtpConfigured ? 'waiting-for-smtp' : row.status;
  return {
    ...row,
    recipient: maskAddress(row.recipient),
    status,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
  };
}

/** A page of the deliveries of a form (the caller checked the form is the caller's). */
export async function deliveryPage(db: Db, formId: string, input: { after?: KeysetPosition | undefined; limit: number; smtpConfigured: boolean }): Promise<Page<ListedDelivery>> {
  const rows = await db
    .select(columns)
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.formId, formId), afterPosition(notificationDeliveries.createdAt, notificationDeliveries.id, input.after)))
    .orderBy(...newestFirst(notificationDeliveries.createdAt, notificationDeliveries.id))
    .limit(input.limit + 1);
  const page = pageOf(rows as Row[], input.limit);
  return { hasNextPage: page.hasNextPage, rows: page.rows.map((row) => listed(row, input.smtpConfigured)) };
}

/**
 * Sends a failed or suppressed delivery again, with a fresh run of retries (a suppressed one is
 * checked against the limits again when it is sent). Pending and sending deliveries are left as they
 * are; a sent one is CONFLICT. Another environment's delivery is not found.
 */
export async function retryNotificationDelivery(
  db: Db,
  scope: { environmentId: string; formId?: string | undefined },
  id: string,
  smtpConfigured: boolean,
): Promise<ListedDelivery> {
  const mine = and(
    eq(notificationDeliveries.id, id),
    eq(notificationDeliveries.environmentId, scope.environmentId),
    scope.formId === undefined ? undefined : eq(notificationDeliveries.formId, scope.formId),
  );
  const [row] = await db
    .update(notificationDeliveries)
    .set({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: sql`now()`,
      leaseToken: null,
      leaseUntil: null,
      updatedAt: sql`now()`,
    })
    .where(and(mine, sql`${notificationDeliveries.status} in ('failed', 'suppressed')`))
    .returning(columns);
  if (row) return listed(row, smtpConfigured);
  const [current] = await db.select(columns).from(notificationDeliveries).where(mine);
  if (!current) throw notFound('Notification delivery not found');
  if (current.status === 'sent') throw new AppError('CONFLICT', 'This delivery was sent; it is not sent again');
  return listed(current, smtpConfigured);
}
