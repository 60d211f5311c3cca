/**
 * The columns of a form's CSV export (responses/export.ts), read as the caller through the ExportForm
 * operation: its hidden fields, its variables and the questions of every version, the current one's first
 * (answers of earlier versions keep their columns). The REST export and the MCP tool `export_responses` both
 * head their CSV with them.
 */
import { runOperation } from '../graphql/execute.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { ExportFormDocument, type ExportFormQuery } from '../graphql/generated/graphql.ts';
import { hiddenFieldColumns, questionColumnsOfVersions, variableColumns, type ExportColumn, type ExportComponent } from './export.ts';

export type ExportedForm = NonNullable<ExportFormQuery['form']>;

/**
 * What reads the columns: the caller, and for a key holding `responses:read` also `forms:read`, for the
 * form's questions only. An export is `responses:read`'s (docs/keys.md): its header row names the questions,
 * as every answer in a response already does (`headline`). Tenancy and the key's forms still apply.
 */
function columnReader(context: GraphQLContext): GraphQLContext {
  const { principal } = context;
  if (principal.kind !== 'apiKey' || principal.scopes === null || !principal.scopes.includes('responses:read')) return context;
  return principal.scopes.includes('forms:read') ? context : { ...context, principal: { ...principal, scopes: [...principal.scopes, 'forms:read'] } };
}

/**
 * The form `formId` and its export's columns; `form: null` when the caller cannot see it, `error` when an
 * operation failed. The first page of versions is read with `context`, each further page with
 * `nextContext()` (its own operation, with its own budget of definition bytes).
 */
export async function formExportColumns(
  formId: string,
  context: GraphQLContext,
  nextContext: () => GraphQLContext = () => context,
): Promise<{ error: unknown } | { form: null } | { form: ExportedForm; columns: ExportColumn[] }> {
  const found = await runOperation(ExportFormDocument, { id: formId, versionsAfter: null }, columnReader(context));
  if (found.error) return { error: found.error };
  const form = found.data.form;
  if (!form) return { form: null };
  const versions = form.versions.edges.map((edge) => edge.node);
  for (let page = form.versions.pageInfo; page.hasNextPage;) {
    const more = await runOperation(ExportFormDocument, { id: formId, versionsAfter: page.endCursor ?? null }, columnReader(nextContext()));
    if (more.error) return { error: more.error };
    if (!more.data.form) return { form: null };
    versions.push(...more.data.form.versions.edges.map((edge) => edge.node));
    page = more.data.form.versions.pageInfo;
  }
  const columns = [
    ...hiddenFieldColumns(form.hiddenFields),
    ...variableColumns(form.variables.map((variable) => variable.name)),
    ...questionColumnsOfVersions(versions.map((version) => (version.definition.json as { steps: { components: ExportComponent[] }[] }).steps)),
  ];
  return { form, columns };
}
