/**
 * Where uploaded files' bytes live: a folder (DATA_DIR/uploads by default) or an S3-compatible bucket
 * (S3_BUCKET set). Keys are `<formId>/<uploadId>`, chosen by formloom, never by a client.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Settings } from '../config.ts';

export interface FileStorage {
  readonly kind: 'folder' | 's3';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or undefined when there is no such file. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes the files; missing ones are fine. */
  remove(keys: readonly string[]): Promise<void>;
}

const SAFE_KEY = /^[\w-]+\/[\w-]+$/;
function checkKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  return key;
}

export function folderStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, checkKey(key));
  return {
    kind: 'folder',
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written whole under a temporary name, then renamed: a reader never sees half a file.
      const temporary = `${path}.${process.pid}.partial`;
      try {
        await writeFile(temporary, bytes, { mode: 0o600 });
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(pathOf(key), { force: true })));
    },
  };
}

export function s3Storage(settings: S3Settings): FileStorage {
  // The SDK is loaded when a bucket is configured, on first use: servers storing files in a folder never pay for it.
  const sdk = import('@aws-sdk/client-s3');
  let client: Promise<S3Client> | undefined;
  const clientOf = () =>
    (client ??= sdk.then(
      ({ S3Client: Client }) =>
        new Client({
          region: settings.region,
          ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
          forcePathStyle: settings.forcePathStyle,
          ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
          // Checksums only where S3 requires them: S3-compatible servers differ in which they understand.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
    ));
  const objectKey = (key: string) => `${settings.keyPrefix}${checkKey(key)}`;
  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      const { PutObjectCommand } = await sdk;
      await (await clientOf()).send(new PutObjectCommand({ Bucket: settings.bucket, Key: objectKey(key), Body: bytes, ContentType: contentType }));
    },
    async get(key) {
      const { GetObjectCommand } = await sdk;
      try {
        const object = await (await clientOf()).send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
        return object.Body ? await object.Body.transformToByteArray() : undefined;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async remove(keys) {
      const { DeleteObjectCommand } = await sdk;
      const s3 = await clientOf();
      // One DeleteObject per key (a few at a time): every S3-compatible server has it, while
      // DeleteObjects' signed `?delete` request is one some of them get wrong.
      for (let start = 0; start < keys.length; start += 8) {
        await Promise.all(keys.slice(start, start + 8).map((key) => s3.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }))));
      }
    },
  };
}

/** The storage the configuration names: the S3 bucket when set, else DATA_DIR/uploads. */
export function createFileStorage(config: Pick<Config, 'dataDir' | 'uploads'>): FileStorage {
  return config.uploads.s3 ? s3Storage(config.uploads.s3) : folderStorage(join(config.dataDir, 'uploads'));
}
