/*
 * A real S3-protocol server for the tests (s3rver: S3's REST/XML API over HTTP, objects on disk;
 * it checks the access key id, not the SigV4 signature), on 127.0.0.1 and a free port. Not a mock of
 * the SDK: the stores talk to it exactly as they would to MinIO or AWS. It records every request
 * line, so a test can see e.g. that a failed multipart upload was aborted (s3rver itself answers
 * AbortMultipartUpload with 405 and cannot list pending uploads).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's built-in account. */
export const S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The app's environment for this server (setupApp / loadConfig). */
  env: Record<string, string>;
  /** `METHOD /path?query` of every request, in order. */
  requests: string[];
  client: S3Client;
  /** Every object key in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'forpost-files'): Promise<TestS3> {
  const dir = mkdtempSync(path.join(tmpdir(), 'forpost-s3-'));
  const s3rver = new S3rver({ silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_KEYS });
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    requests,
    client,
    async keys() {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        out.push(...(r.Contents ?? []).map((c) => c.Key ?? ''));
        token = r.NextContinuationToken;
      } while (token);
      return out.sort();
    },
    async close() {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
