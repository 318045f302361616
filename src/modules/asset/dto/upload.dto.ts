import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';
import { CONTENT_TYPE_PATTERN } from '../asset-files';
import { AssetSurface, SURFACES } from '../asset.record';

export class RequestUploadDto {
  @ApiProperty({ description: "the file's name (any path is dropped, control characters removed)" })
  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  filename: string;

  @ApiProperty({ description: 'the type the bytes are sent with (an image surface takes a raster image type)' })
  @IsString()
  @MaxLength(255)
  @Matches(CONTENT_TYPE_PATTERN, { message: 'contentType must be a media type (type/subtype)' })
  contentType: string;

  @ApiProperty({ description: 'in bytes' })
  @IsInt()
  @Min(1)
  size: number;

  @ApiProperty({ enum: SURFACES, required: false, description: 'where the file goes (default description)' })
  @IsOptional()
  @IsIn(SURFACES)
  surface?: AssetSurface;
}

export class FinalizeUploadDto extends RequestUploadDto {
  @ApiProperty({ description: 'the key the upload request answered' })
  @IsString()
  @MaxLength(200)
  key: string;
}
