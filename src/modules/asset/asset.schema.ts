import { ApiExtraModels, ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, NullableRefProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { SURFACES } from './asset.record';

@ApiSchema({ name: 'AssetUploader' })
export class AssetUploaderSchema {
  @IdProp() id: string;
  @TextProp() name: string;
}

/** The OpenAPI schema of the asset record (AssetRecord; docs/files.md, "The asset record"). */
@ApiSchema({ name: 'Asset' })
@ApiExtraModels(AssetUploaderSchema)
export class AssetRecordSchema {
  @IdProp() id: string;
  @IdProp() taskId: string;
  @TextProp() filename: string;
  @TextProp() contentType: string;
  @IntProp() size: number;
  @ApiProperty({ enum: [...SURFACES] }) surface: string;
  @TextProp({ description: '/api/asset/:id' }) url: string;
  @FlagProp({ description: 'a raster image by its bytes: shown inline' }) isImage: boolean;
  @NullableRefProp(AssetUploaderSchema, { description: "null once the uploader's account is gone" }) uploadedBy: AssetUploaderSchema | null;
  @TimeProp() createdAt: string;
}

/** Where to send an upload's bytes (UploadTicket). */
@ApiSchema({ name: 'UploadTicket' })
export class UploadTicketSchema {
  @TextProp({ description: 'give it back to finalize' }) key: string;
  @TextProp({ description: 'PUT the bytes here with `headers`' }) uploadUrl: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) headers: Record<string, string>;
  @TimeProp() expiresAt: string;
}

/** What the local store's upload URL answers once the bytes are stored. */
@ApiSchema({ name: 'StoredUpload' })
export class StoredUploadSchema {
  @TextProp() key: string;
  @IntProp() size: number;
}
