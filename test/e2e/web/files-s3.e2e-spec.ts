import { TestS3Server } from '../../support/s3-server';
import { useWebApp } from '../../support/web-page';
import { describeWebFiles } from './files-journeys';

/**
 * Files in the web app with S3-compatible storage: the browser uploads straight to the bucket (a
 * real S3 server on loopback, another origin: CORS, and the app's Content-Security-Policy lets it
 * connect there), and reads the files back through the service.
 */
const s3 = new TestS3Server();
describeWebFiles(useWebApp({ env: async () => (await s3.start()).env('web/') }), 'S3 store', (key) => s3.has(`web/${key}`));
// After the service has stopped (hooks run in the order they were declared).
afterAll(() => s3.close());
