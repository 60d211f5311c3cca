/**
 * The audit log of administrative actions (docs/privacy.md, "Audit log"). `recordAudit` takes the caller's
 * transaction where the action has one, so the entry commits with the change. Entries name ids and
 * counts only: never a secret, an e-mail address, an IP or an answer.
 */
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Principal } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { createId } from '../ids.ts';
import { afterPosition, microsOf, newestFirst, pageOf, type KeysetPosition, type Page } from '../keyset.ts';

/** Every action the log records. */
export const AUDIT_ACTIONS = [
  'environment.create',
  'environment.settings',
  'api_key.create',
  'api_key.revoke',
  'form.generate',
  'form.import',
  'form.update',
  'form.delete',
  'form.close',
  'form.reopen',
  'form.retention',
  'form.purge',
  'response.delete',
  'responses.delete',
  'responses.retention',
  'lead.erase',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'share_link.create',
  'share_link.revoke',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface Actor {
  kind: 'admin' | 'apiKey' | 'system';
  keyId: string | null;
}

export const SYSTEM_ACTOR: Actor = { kind: 'system', keyId: null };

/** Who acts for a request: its API key, or the admin token. */
export function actorOf(principal: Principal): Actor {
  if (principal.kind === 'apiKey') return { kind: 'apiKey', keyId: principal.keyId };
  return { kind: 'admin', keyId: null };
}

export interface AuditEntryInput {
  environmentId: string;
  actor: Actor;
  action: AuditAction;
  targetIds?: readonly string[];
  details?: Record<string, string | number | boolean | null>;
}

export type AuditEntry = typeof auditLog.$inferSelect;
export type ListedAuditEntry = AuditEntry & { position: string };

export async function recordAudit(db: Db, entry: AuditEntryInput): Promise<void> {
  await db.insert(auditLog).values({
    id: createId(),
    environmentId: entry.environmentId,
    actorKind: entry.actor.kind,
    actorKeyId: entry.actor.keyId,
    action: entry.action,
    targetIds: [...(entry.targetIds ?? [])],
    details: entry.details ?? {},
    createdAt: sql`clock_timestamp()`,
  });
}

const listedColumns = { ...getTableColumns(auditLog), position: microsOf(auditLog.createdAt).as('position') };

/** One keyset page of an environment's entries, newest first (an index scan of audit_log_environment_created_idx). */
export async function listAudit(db: Db, input: { environmentId: string; after?: KeysetPosition | undefined; limit: number }): Promise<Page<ListedAuditEntry>> {
  const rows = await db
    .select(listedColumns)
    .from(auditLog)
    .where(and(eq(auditLog.environmentId, input.environmentId), afterPosition(auditLog.createdAt, auditLog.id, input.after)))
    .orderBy(...newestFirst(auditLog.createdAt, auditLog.id))
    .limit(input.limit + 1);
  return pageOf(rows, input.limit);
}
