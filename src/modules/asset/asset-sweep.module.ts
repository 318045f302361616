import { Module } from '@nestjs/common';
import { FileStoreModule } from './storage/file-store.module';
import { StoredFileRemovalRepository } from './stored-file-removal.repository';
import { StoredFileSweeper } from './stored-file-sweeper';

/** Worker: removes deleted assets' files from the store and abandons unfinished uploads (docs/files.md, "Removal"). */
@Module({ imports: [FileStoreModule], providers: [StoredFileRemovalRepository, StoredFileSweeper] })
export class AssetSweepModule {}
