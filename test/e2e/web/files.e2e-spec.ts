import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testStorageDir } from '../../support/app';
import { useWebApp } from '../../support/web-page';
import { describeWebFiles } from './files-journeys';

/** Files in the web app with the local store (the default): the browser uploads to the service's own upload URL. */
const web = useWebApp();
describeWebFiles(web, 'local store', async (key) => existsSync(join(testStorageDir(web.t.queuePrefix), key)));
