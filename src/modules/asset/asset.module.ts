import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { AssetController, TaskUploadController } from './asset.controller';
import { ASSET_SCOPE_SQL, AssetRepository } from './asset.repository';
import { AssetService } from './asset.service';
import { FileStoreModule } from './storage/file-store.module';

/** Images and attachments of tasks (docs/files.md). */
@Module({
  imports: [FileStoreModule],
  controllers: [TaskUploadController, AssetController],
  providers: [AssetService, AssetRepository],
  exports: [AssetService],
})
export class AssetModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('asset', { notFound: 'Asset not found', sql: ASSET_SCOPE_SQL });
  }
}
