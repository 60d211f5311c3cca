/**
 * Uploaded files in an S3-compatible bucket (S3_BUCKET, S3_ENDPOINT, …): a real S3 server from the npm
 * registry (@20minutes/s3rver, a maintained fork of s3rver) on a free local port, spoken to through
 * @aws-sdk/client-s3 exactly as AWS, MinIO or R2 would be.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the package ships no types
import S3rver from '@20minutes/s3rver';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { s3Storage } from '../../src/uploads/storage.ts';
import { removeFilesOf } from '../../src/uploads/uploads.service.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, testConfig, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';
import { PDF } from '../support/file-fixtures.ts';
import { onFileEnd } from '../support/cleanup.ts';
import type { S3Settings } from '../../src/config.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;
let s3: S3Settings;

beforeAll(async () => {
  const directory = await mkdtemp(join(tmpdir(), 'formloom-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'formloom-test' }] });
  const address = (await server.run()) as AddressInfo;
  onFileEnd(async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });
  s3 = {
    bucket: 'formloom-test',
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    keyPrefix: 'uploads/',
  };
  ({ db } = await setupTestApp());
  app = appWith(db, { uploads: { ...testConfig().uploads, s3 } });
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, [
    { name: 'Files', components: [{ type: 'FileUploader', content: { question: 'CV' } }] },
    { name: 'End', components: [{ type: 'Header', content: { title: 'Thanks' } }] },
  ]);
});

describe('S3 storage', () => {
  it('stores an upload in the bucket, serves it back, and removes it with its response', async () => {
    const componentId = componentAt(form, 0, 0).id;
    const body = new FormData();
    body.append('componentId', componentId);
    body.append('file', new File([PDF], 'cv.pdf'));
    const uploaded = await app.request(`/s/${form.id}/uploads`, { method: 'POST', body });
    expect(uploaded.status).toBe(201);
    const [file] = ((await uploaded.json()) as { files: { id: string }[] }).files;
    const storage = s3Storage(s3);
    expect(Buffer.from((await storage.get(`${form.id}/${file!.id}`))!).equals(PDF)).toBe(true);

    const started = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [componentId]: file!.id } }));
    expect(started.status).toBe(201);
    const { id: responseId } = (await started.json()) as { id: string };
    const served = await app.request(`/api/v1/files/${file!.id}`, { headers: { 'x-api-key': tenant.apiKey } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).toBe(true);

    expect(await removeFilesOf(db, storage, [responseId])).toBe(1);
    expect(await storage.get(`${form.id}/${file!.id}`)).toBeUndefined();
    expect((await app.request(`/api/v1/files/${file!.id}`, { headers: { 'x-api-key': tenant.apiKey } })).status).toBe(404);
  });
});
