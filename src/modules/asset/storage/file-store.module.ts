import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { FILE_STORE, FileStore } from './file-store';
import { LocalFileStore } from './local-file-store';
import { S3FileStore } from './s3-file-store';

/** The file store the configuration names (docs/files.md, "Storage"), for the API and the worker alike. */
@Module({
  providers: [
    {
      provide: FILE_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): FileStore => {
        const { storage, uploadTtlSeconds } = config.files;
        return storage.kind === 's3' ? new S3FileStore(storage, uploadTtlSeconds) : new LocalFileStore(storage.dir);
      },
    },
  ],
  exports: [FILE_STORE],
})
export class FileStoreModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(FILE_STORE) private readonly store: FileStore) {}

  async onModuleInit(): Promise<void> {
    if (this.store instanceof LocalFileStore) await this.store.prepare();
  }

  onApplicationShutdown(): void {
    if (this.store instanceof S3FileStore) this.store.close();
  }
}
