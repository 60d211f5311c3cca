/**
 * The GraphQL side of the catalogue: builds each module's types (modules get the builder through the
 * kit, so services reading the catalogue never load GraphQL) and the `Component` and `Answer` unions
 * over them. A type without a member of its own is `OtherComponent` / `OtherAnswer`.
 */
import { builder } from '../graphql/builder.ts';
import { asBoolean as bool, asString as str } from '../graphql/json-fields.ts';
import type { StoredResponse } from './answers.ts';
import { COMPONENT_MODULES } from './catalogue.ts';
import type { ComponentFields, GraphQLKit } from './module.ts';
import type { StoredComponent } from '../db/json-columns.ts';

const kit: GraphQLKit = {
  builder,
  component: (name, description, fields = () => ({})) =>
    builder.objectRef<StoredComponent>(name).implement({
      description,
      fields: (t) => ({
        id: t.exposeID('id', { description: 'Stable id; the questionId of answers to this component.' }),
        key: t.string({ nullable: true, description: 'The name conditions use (unique in the form); null when it has none.', resolve: (c) => c.key ?? null }),
        type: t.exposeString('type', { description: 'The stored component type, e.g. "CalendlyScreen".' }),
        content: t.field({ type: 'JSON', description: 'The stored content, aliases normalised.', resolve: (c) => c.content }),
        ...(fields(t) as Record<string, never>),
      }),
    }),
  answer: (name, description, fields = () => ({})) =>
    builder.objectRef<StoredResponse>(name).implement({
      description,
      fields: (t) => ({
        type: t.string({ description: 'The component type answered, e.g. "Dropdown".', resolve: (r) => r.type }),
        headline: t.string({ nullable: true, description: 'The question text.', resolve: (r) => str(r.headline) }),
        componentShapeVersion: t.string({ nullable: true, resolve: (r) => str(r.componentShapeVersion) }),
        leadAttribute: t.string({ nullable: true, description: 'The lead attribute this answer sets, if any.', resolve: (r) => str(r.leadAttribute) }),
        ...(fields(t) as Record<string, never>),
      }),
    }),
  text: (t: ComponentFields, key: string) => t.string({ nullable: true, resolve: (c) => str(c.content[key]) }),
  bool: (t: ComponentFields, key: string) => t.boolean({ nullable: true, resolve: (c) => bool(c.content[key]) }),
};

const componentMembers = new Map<string, ReturnType<GraphQLKit['component']>>();
const answerMembers = new Map<string, ReturnType<GraphQLKit['answer']>>();
for (const module of COMPONENT_MODULES) {
  const members = module.graphql?.(kit) ?? {};
  for (const [type, ref] of Object.entries(members.components ?? {})) componentMembers.set(type, ref);
  for (const [type, ref] of Object.entries(members.answers ?? {})) answerMembers.set(type, ref);
}

const OtherComponent = kit.component('OtherComponent', 'Any other catalogued type (EmailForm, FileUploader, GraphicOptions, PasswordInput, …); read its `content`.');
const OtherAnswer = kit.answer('OtherAnswer', 'Answer to any other component type; read the raw `response`.');

export const ComponentUnion = builder.unionType('Component', {
  description: 'A component of a form step; the member follows the component type.',
  types: [...new Set(componentMembers.values()), OtherComponent],
  resolveType: (component) => componentMembers.get(component.type) ?? OtherComponent,
});

export const AnswerUnion = builder.unionType('Answer', {
  description: "Typed view of one answer; the member follows the answered component's type.",
  types: [...new Set(answerMembers.values()), OtherAnswer],
  resolveType: (response) => answerMembers.get(response.type) ?? OtherAnswer,
});
