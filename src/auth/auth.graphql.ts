/** `viewer`: who is calling (the admin token, or an API key and its environment), where exploring the graph starts. */
import { ApiKeyRef, EnvironmentRef, ScopeEnum } from '../environments/environments.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { readScope, requireAdmin, usableScopes, type Principal } from './auth.service.ts';
import { SCOPES } from './scopes.ts';
import { rotateSigningKeys } from './signing-keys.ts';

type ViewerShape = Exclude<Principal, { kind: 'anonymous' }>;

const ViewerKindEnum = builder.enumType('ViewerKind', {
  description: 'How the caller authenticated.',
  values: {
    ADMIN: { value: 'admin', description: 'The admin token: every environment.' },
    API_KEY: { value: 'apiKey', description: "An environment's API key: that environment only." },
  } as const,
});

const ViewerRef = builder.objectRef<ViewerShape>('Viewer').implement({
  description: 'The caller: where exploring the graph starts.',
  fields: (t) => ({
    kind: t.field({ type: ViewerKindEnum, resolve: (viewer) => viewer.kind }),
    environment: t.field({
      type: EnvironmentRef,
      nullable: true,
      description: "The API key's environment; null for the admin token (use `environment(id:)`).",
      resolve: (viewer) => (viewer.kind === 'apiKey' ? viewer.environmentId : null),
    }),
    apiKey: t.field({
      type: ApiKeyRef,
      nullable: true,
      description: "The key's public metadata; null for the admin token.",
      resolve: (viewer) => (viewer.kind === 'apiKey' ? viewer.keyId : null),
    }),
    scopes: t.field({
      type: [ScopeEnum],
      description:
        "What the caller may do: its API key's scopes (every scope for a key made without scopes, and for the admin token; a key limited to forms holds no environment-wide scope, settings:manage or audit:read).",
      resolve: (viewer) => (viewer.kind === 'apiKey' ? usableScopes(viewer) : SCOPES),
    }),
    expiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: "When the caller's API key expires; null when it does not (and for the admin token).",
      resolve: (viewer) => (viewer.kind === 'apiKey' ? viewer.expiresAt : null),
    }),
    formIds: t.idList({
      nullable: true,
      description: "The forms the caller's API key is limited to; null: every form of its environment (and for the admin token).",
      resolve: (viewer) => (viewer.kind === 'apiKey' && viewer.formIds !== null ? [...viewer.formIds] : null),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    authScopes: { authenticated: true },
    type: ViewerRef,
    description: 'Who is calling: the API key and its environment (or the admin token). UNAUTHENTICATED without credentials.',
    resolve: (_, __, { principal }) => {
      readScope(principal);
      return principal as ViewerShape;
    },
  }),
);

interface SigningKeyRotationShape {
  rotatedAt: Date;
  previousKeysAcceptedUntil: Date;
}

const SigningKeyRotationRef = builder.objectRef<SigningKeyRotationShape>('SigningKeyRotation').implement({
  description: "A rotation of the signing keys (respondents' cookies and tokens, signed file URLs).",
  fields: (t) => ({
    rotatedAt: t.expose('rotatedAt', { type: 'DateTime' }),
    previousKeysAcceptedUntil: t.expose('previousKeysAcceptedUntil', {
      type: 'DateTime',
      description: 'Until when what the replaced keys signed is still accepted (SIGNING_KEY_GRACE_HOURS after the rotation).',
    }),
  }),
});

builder.mutationField('rotateSigningKeys', (t) =>
  t.field({
    type: SigningKeyRotationRef,
    authScopes: { admin: true },
    description:
      'Admin token only: new random signing keys for every node. Cookies, visitor and embed tokens and file URLs signed with the replaced keys stay valid for the grace period, then stop.',
    resolve: async (_, __, ctx) => {
      requireAdmin(ctx.principal);
      const keyring = ctx.signing;
      if (keyring?.graceMs === undefined) throw new Error('This server has no stored signing keys to rotate');
      const { rotatedAt } = await rotateSigningKeys(ctx.db, new Date());
      await keyring.refresh();
      return { rotatedAt, previousKeysAcceptedUntil: new Date(rotatedAt.getTime() + keyring.graceMs) };
    },
  }),
);
