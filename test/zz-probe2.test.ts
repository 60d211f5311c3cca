import { it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { createTenant, setupTestApp } from './helpers.ts';

it('probe', async () => {
  const ctx = await setupTestApp();
  const t = await createTenant(ctx.db);
  const h = { 'x-api-key': t.apiKey };
  const q = encodeURIComponent('{ __typename }');
  for (const path of [`/graphql?query=${q}&variables=notjson`, `/graphql?query=${q}&variables=%7B`, `/graphql?query=${q}&variables=5`, `/graphql?query=${q}&variables=%5B%5D`, `/graphql?query=${q}&variables=%22s%22`, `/graphql?query=${q}&extensions=notjson`, `/graphql?query=${q}&extensions=5`, `/graphql?query=${q}&variables=null`, `/graphql?query=${q}&operationName=x`, `/graphql?variables=%7B%7D`, `/graphql?query=${q}&variables=${encodeURIComponent('{"a":"\\u0000"}')}`]) {
    const r = await ctx.app.request(path, { headers: { ...h, accept: 'application/json' } });
    console.log('GET', path, r.status, (await r.text()).slice(0, 300));
  }
  for (const body of [{ query: '{ __typename }', variables: 5 }, { query: '{ __typename }', variables: 'x' }, { query: '{ __typename }', variables: [] }, { query: '{ __typename }', extensions: 'x' }, { query: '{ __typename }', extensions: [1] }, { query: 5 }, { query: '{ __typename }', operationName: 5 }, { query: '{ __typename }', foo: 1 }]) {
    const r = await ctx.app.request('/graphql', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    console.log('POST', JSON.stringify(body), r.status, (await r.text()).slice(0, 300));
  }
  const deep = `{ __schema { types { ${'ofType { '.repeat(60)} name ${'}'.repeat(60)} } } }`;
  let r = await ctx.app.request('/graphql', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ query: deep }) });
  console.log('deep', r.status, (await r.text()).slice(0, 300));
  r = await ctx.app.request('/graphql', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }) }) });
  console.log('introspection', r.status, (await r.text()).slice(0, 100));
});
