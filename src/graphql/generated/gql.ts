/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "mutation CreateEnvironment($input: CreateEnvironmentInput!) {\n  createEnvironment(input: $input) {\n    id\n    name\n  }\n}\n\nmutation CreateApiKey($input: CreateApiKeyInput!) {\n  createApiKey(input: $input) {\n    apiKey {\n      id\n      environmentId\n    }\n    key\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    id\n    revoked\n  }\n}": typeof types.CreateEnvironmentDocument,
    "mutation GenerateForm($environmentId: ID!, $input: GenerateFormInput!) {\n  generateForm(environmentId: $environmentId, input: $input) {\n    success\n    form {\n      id\n      url\n    }\n  }\n}\n\nmutation ImportForm($input: ImportFormInput!) {\n  importForm(input: $input) {\n    id\n    url\n    status\n  }\n}\n\nmutation DeleteForm($id: ID!) {\n  deleteForm(id: $id) {\n    id\n    deleted\n  }\n}": typeof types.GenerateFormDocument,
    "fragment RestResponseFields on FormResponse {\n  id\n  createdAt\n  updatedAt\n  dataUpdatedAt\n  finished\n  status\n  formId\n  version\n  data: rawData\n  meta\n  personAttributes {\n    ip\n    country\n    visitedForm\n    completedForm\n  }\n}\n\nquery FormResponsesPage($formId: ID!, $filter: ResponseFilter, $first: Int, $after: String) {\n  formResponses(formId: $formId, filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery EnvironmentResponsesPage($filter: ResponseFilter, $first: Int, $after: String) {\n  environmentResponses(filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.RestResponseFieldsFragmentDoc,
};
const documents: Documents = {
    "mutation CreateEnvironment($input: CreateEnvironmentInput!) {\n  createEnvironment(input: $input) {\n    id\n    name\n  }\n}\n\nmutation CreateApiKey($input: CreateApiKeyInput!) {\n  createApiKey(input: $input) {\n    apiKey {\n      id\n      environmentId\n    }\n    key\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    id\n    revoked\n  }\n}": types.CreateEnvironmentDocument,
    "mutation GenerateForm($environmentId: ID!, $input: GenerateFormInput!) {\n  generateForm(environmentId: $environmentId, input: $input) {\n    success\n    form {\n      id\n      url\n    }\n  }\n}\n\nmutation ImportForm($input: ImportFormInput!) {\n  importForm(input: $input) {\n    id\n    url\n    status\n  }\n}\n\nmutation DeleteForm($id: ID!) {\n  deleteForm(id: $id) {\n    id\n    deleted\n  }\n}": types.GenerateFormDocument,
    "fragment RestResponseFields on FormResponse {\n  id\n  createdAt\n  updatedAt\n  dataUpdatedAt\n  finished\n  status\n  formId\n  version\n  data: rawData\n  meta\n  personAttributes {\n    ip\n    country\n    visitedForm\n    completedForm\n  }\n}\n\nquery FormResponsesPage($formId: ID!, $filter: ResponseFilter, $first: Int, $after: String) {\n  formResponses(formId: $formId, filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery EnvironmentResponsesPage($filter: ResponseFilter, $first: Int, $after: String) {\n  environmentResponses(filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.RestResponseFieldsFragmentDoc,
};

/**
 * The gql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = gql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function gql(source: string): unknown;

/**
 * The gql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function gql(source: "mutation CreateEnvironment($input: CreateEnvironmentInput!) {\n  createEnvironment(input: $input) {\n    id\n    name\n  }\n}\n\nmutation CreateApiKey($input: CreateApiKeyInput!) {\n  createApiKey(input: $input) {\n    apiKey {\n      id\n      environmentId\n    }\n    key\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    id\n    revoked\n  }\n}"): (typeof documents)["mutation CreateEnvironment($input: CreateEnvironmentInput!) {\n  createEnvironment(input: $input) {\n    id\n    name\n  }\n}\n\nmutation CreateApiKey($input: CreateApiKeyInput!) {\n  createApiKey(input: $input) {\n    apiKey {\n      id\n      environmentId\n    }\n    key\n  }\n}\n\nmutation RevokeApiKey($id: ID!) {\n  revokeApiKey(id: $id) {\n    id\n    revoked\n  }\n}"];
/**
 * The gql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function gql(source: "mutation GenerateForm($environmentId: ID!, $input: GenerateFormInput!) {\n  generateForm(environmentId: $environmentId, input: $input) {\n    success\n    form {\n      id\n      url\n    }\n  }\n}\n\nmutation ImportForm($input: ImportFormInput!) {\n  importForm(input: $input) {\n    id\n    url\n    status\n  }\n}\n\nmutation DeleteForm($id: ID!) {\n  deleteForm(id: $id) {\n    id\n    deleted\n  }\n}"): (typeof documents)["mutation GenerateForm($environmentId: ID!, $input: GenerateFormInput!) {\n  generateForm(environmentId: $environmentId, input: $input) {\n    success\n    form {\n      id\n      url\n    }\n  }\n}\n\nmutation ImportForm($input: ImportFormInput!) {\n  importForm(input: $input) {\n    id\n    url\n    status\n  }\n}\n\nmutation DeleteForm($id: ID!) {\n  deleteForm(id: $id) {\n    id\n    deleted\n  }\n}"];
/**
 * The gql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function gql(source: "fragment RestResponseFields on FormResponse {\n  id\n  createdAt\n  updatedAt\n  dataUpdatedAt\n  finished\n  status\n  formId\n  version\n  data: rawData\n  meta\n  personAttributes {\n    ip\n    country\n    visitedForm\n    completedForm\n  }\n}\n\nquery FormResponsesPage($formId: ID!, $filter: ResponseFilter, $first: Int, $after: String) {\n  formResponses(formId: $formId, filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery EnvironmentResponsesPage($filter: ResponseFilter, $first: Int, $after: String) {\n  environmentResponses(filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): (typeof documents)["fragment RestResponseFields on FormResponse {\n  id\n  createdAt\n  updatedAt\n  dataUpdatedAt\n  finished\n  status\n  formId\n  version\n  data: rawData\n  meta\n  personAttributes {\n    ip\n    country\n    visitedForm\n    completedForm\n  }\n}\n\nquery FormResponsesPage($formId: ID!, $filter: ResponseFilter, $first: Int, $after: String) {\n  formResponses(formId: $formId, filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery EnvironmentResponsesPage($filter: ResponseFilter, $first: Int, $after: String) {\n  environmentResponses(filter: $filter, first: $first, after: $after) {\n    edges {\n      node {\n        ...RestResponseFields\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"];

export function gql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;