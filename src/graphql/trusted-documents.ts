/**
 * The documents /graphql runs by hash (docs/graphql.md, "Persisted documents"): a document's id is the
 * SHA-256 of its text, in lowercase hex.
 *
 * - Trusted documents: the operations in schema/operations/ (as codegen prints them, each operation with
 *   the fragments it uses: the text the `formloom` command sends), and those an operator trusted with
 *   `formloom graphql trust FILE`, kept in the database (graphql_trusted_documents) so every node finds
 *   them. A node keeps each one it has read: a hash names one text forever.
 * - Automatic persisted queries (APQ): a client that sends a document with its hash registers it in this
 *   node's memory, the most recently used first, within a budget of characters; another node, or this one
 *   after forgetting it, answers PERSISTED_QUERY_NOT_FOUND and the client sends the text again.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { GraphQLError, Kind, parse, print, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Db } from '../db/client.ts';
import { graphqlTrustedDocuments } from '../db/schema.ts';
import { invalidInput, type FieldError } from '../errors.ts';
import * as generated from './generated/graphql.ts';

/** A document's id: the SHA-256 of its text (UTF-8), lowercase hex. */
export const documentHash = (text: string) => createHash('sha256').update(text).digest('hex');

/** What an id looks like; anything else is refused before a lookup. */
export const isDocumentHash = (value: string) => value.length === 64 && /^[0-9a-f]+$/.test(value);

/** Characters of APQ documents one node keeps (about 8 MB of text). */
const APQ_BUDGET_CHARS = 4_000_000;

/** The text of every operation in schema/operations/, by its hash. */
function builtInDocuments(): Map<string, string> {
  const documents = new Map<string, string>();
  for (const value of Object.values(generated)) {
    if (typeof value !== 'object' || (value as Partial<DocumentNode>).kind !== Kind.DOCUMENT) continue;
    const text = print(value);
    documents.set(documentHash(text), text);
  }
  return documents;
}

let builtIns: Map<string, string> | undefined;

/** The documents of schema/operations/, by hash (for `formloom` and for listings). */
export function builtInTrustedDocuments(): ReadonlyMap<string, string> {
  builtIns ??= builtInDocuments();
  return builtIns;
}

/** Most recently used last: a Map keeps insertion order, so the first entries are the ones to forget. */
class RecentDocuments {
  private readonly documents = new Map<string, string>();
  private chars = 0;

  constructor(private readonly budget: number) {}

  get(hash: string): string | undefined {
    const text = this.documents.get(hash);
    if (text === undefined) return undefined;
    this.documents.delete(hash);
    this.documents.set(hash, text);
    return text;
  }

  set(hash: string, text: string): void {
    if (text.length > this.budget || this.documents.has(hash)) return;
    this.documents.set(hash, text);
    this.chars += text.length;
    for (const [oldest, oldText] of this.documents) {
      if (this.chars <= this.budget) break;
      this.documents.delete(oldest);
      this.chars -= oldText.length;
    }
  }
}

/** One /graphql server's documents by hash: the trusted ones (built in, and read from the database) and its APQ cache. */
export class PersistedDocuments {
  private readonly trusted = new Map(builtInTrustedDocuments());
  private readonly automatic = new RecentDocuments(APQ_BUDGET_CHARS);

  /** A trusted document's text: this node's copy, else the database's (kept from then on). */
  async trustedText(db: Db, hash: string): Promise<string | undefined> {
    const known = this.trusted.get(hash);
    if (known !== undefined) return known;
    const [row] = await db.select({ document: graphqlTrustedDocuments.document }).from(graphqlTrustedDocuments).where(eq(graphqlTrustedDocuments.hash, hash));
    if (row) this.trusted.set(hash, row.document);
    return row?.document;
  }

  /** A document registered by APQ on this node. */
  automaticText(hash: string): string | undefined {
    return this.automatic.get(hash);
  }

  /** Registers an APQ document (its hash checked by the caller). */
  remember(hash: string, text: string): void {
    this.automatic.set(hash, text);
  }
}

export interface TrustedDocument {
  hash: string;
  operationNames: string[];
  /** Null for the documents of schema/operations/, which have no row. */
  createdAt: Date | null;
  builtIn: boolean;
}

/** The names of a document's operations (an anonymous one has none). */
function operationNamesOf(document: DocumentNode): string[] {
  return document.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [definition.name.value] : []));
}

const invalidDocument = (errors: FieldError[]) => invalidInput(errors, 'Invalid GraphQL document');

/**
 * Trusts a document for every node: it must parse and be valid against `schema` (every problem is
 * reported). Trusting one again changes nothing.
 */
export async function trustDocument(db: Db, schema: GraphQLSchema, text: string): Promise<TrustedDocument> {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    throw invalidDocument([{ message: (error as GraphQLError).message, path: ['document'] }]);
  }
  const problems = validate(schema, document);
  if (problems.length > 0) throw invalidDocument(problems.map((problem) => ({ message: problem.message, path: ['document'] })));
  const operationNames = operationNamesOf(document);
  if (document.definitions.every((definition) => definition.kind !== Kind.OPERATION_DEFINITION)) {
    throw invalidDocument([{ message: 'The document has no operation', path: ['document'] }]);
  }
  const hash = documentHash(text);
  if (builtInTrustedDocuments().has(hash)) return { hash, operationNames, createdAt: null, builtIn: true };
  await db.insert(graphqlTrustedDocuments).values({ hash, document: text, operationNames }).onConflictDoNothing();
  const [row] = await db.select().from(graphqlTrustedDocuments).where(eq(graphqlTrustedDocuments.hash, hash));
  return { hash, operationNames: row!.operationNames, createdAt: row!.createdAt, builtIn: false };
}

/** Every trusted document: schema/operations/ first, then the operators', oldest first. */
export async function listTrustedDocuments(db: Db): Promise<TrustedDocument[]> {
  const builtIn = [...builtInTrustedDocuments()].map(([hash, text]) => ({
    hash,
    operationNames: operationNamesOf(parse(text)),
    createdAt: null,
    builtIn: true,
  }));
  const rows = await db.select().from(graphqlTrustedDocuments).orderBy(graphqlTrustedDocuments.createdAt, graphqlTrustedDocuments.hash);
  return [
    ...builtIn,
    ...rows.map((row) => ({
      hash: row.hash,
      operationNames: row.operationNames,
      createdAt: row.createdAt,
      builtIn: false,
    })),
  ];
}
