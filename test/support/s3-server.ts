import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver has no type declarations.
const S3rver = require('s3rver');

export const TEST_BUCKET = 'tandem-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3-compatible server on loopback (the npm package s3rver: the S3 REST protocol with SigV4
 * and presigned URLs, objects on disk in a temporary folder), as a deployment's bucket. Its
 * bucket allows browser uploads from any origin (CORS), as a deployment's must from the app's.
 */
export class TestS3Server {
  private server: any = null;
  private dir = '';
  endpoint = '';
  private client: S3Client | null = null;

  async start(port = 0): Promise<this> {
    this.dir ||= await mkdtemp(join(tmpdir(), 'tandem-s3-'));
    const cors = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader></CORSRule></CORSConfiguration>`;
    this.server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: this.dir, configureBuckets: [{ name: TEST_BUCKET, configs: [cors] }] });
    const { port: bound } = await this.server.run();
    this.endpoint = `http://127.0.0.1:${bound}`;
    return this;
  }

  /** Stops answering (the objects stay on disk): start(samePort) brings it back. */
  async stop(): Promise<void> {
    await this.server?.close();
    this.server = null;
  }

  get port(): number {
    return Number(new URL(this.endpoint).port);
  }

  /** The service's settings for this bucket. */
  env(prefix = 'tandem/'): Record<string, string> {
    return {
      S3_ENDPOINT: this.endpoint,
      S3_BUCKET: TEST_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      S3_KEY_PREFIX: prefix,
    };
  }

  /** Whether the bucket holds `key` (the object key, prefix included). */
  async has(key: string): Promise<boolean> {
    this.client ??= new S3Client({
      endpoint: this.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: key }));
      return true;
    } catch (err: any) {
      if (err?.$metadata?.httpStatusCode === 404) return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.client?.destroy();
    await this.stop();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
