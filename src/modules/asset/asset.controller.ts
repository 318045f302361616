import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeyScope } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { AllowsSignedOut, Public } from '../../common/decorators/public.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { AssetRecordSchema, StoredUploadSchema, UploadTicketSchema } from './asset.schema';
import { AssetService } from './asset.service';
import { FinalizeUploadDto, RequestUploadDto } from './dto/upload.dto';

const TASK = { kind: 'task', from: 'params', key: 'taskId' } as const;
const ASSET = { kind: 'asset', from: 'params', key: 'id' } as const;

/** The origin the request came to (the local store's upload URL names it when PUBLIC_API_URL is unset). */
const originOf = (req: Request): string => `${req.protocol}://${req.get('host')}`;

/** The original's upload flow on its paths (docs/files.md, "Uploading"). */
@ApiTags('asset')
@ApiBearerAuth()
@Controller('task/image-upload')
export class TaskUploadController {
  constructor(private readonly assets: AssetService) {}

  @Put(':taskId')
  @ApiAnswer('Upload ticket', UploadTicketSchema)
  @RequirePermission('task', 'update', TASK)
  @ApiOperation({ summary: "Ask to upload a file to a task: answers where to PUT its bytes and the key to finalize with (the workspace's room is reserved)" })
  @ApiErrors(
    [400, 'An image of a description must be a raster image (PNG, JPEG, GIF, WebP, BMP or AVIF), not image/svg+xml', 'size must not be less than 1'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Task not found'],
    [413, 'The file is larger than the 10 MiB allowed for an image', 'The workspace has no room left for this file: its files may take 5120 MiB in all'],
  )
  request(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('taskId', Id('Task')) taskId: string, @Body() dto: RequestUploadDto, @Req() req: Request) {
    return this.assets.requestUpload(scope.workspaceId, user, taskId, dto, originOf(req));
  }

  @Post(':taskId/finalize')
  @HttpCode(200)
  @ApiAnswer('Asset', AssetRecordSchema)
  @RequirePermission('task', 'update', TASK)
  @ApiOperation({ summary: 'Finish an upload: the stored file is checked (size; an image by its first bytes) and becomes an asset of the task' })
  @ApiErrors(
    [400, 'No upload of this task has this key', 'Nothing was uploaded with this key', 'The uploaded file is not a raster image (PNG, JPEG, GIF, WebP, BMP or AVIF)'],
    [403, 'Insufficient permissions', 'Insufficient API key scope'],
    [404, 'Task not found'],
  )
  finalize(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('taskId', Id('Task')) taskId: string, @Body() dto: FinalizeUploadDto) {
    return this.assets.finalize(scope.workspaceId, user, taskId, dto);
  }
}

@ApiTags('asset')
@ApiBearerAuth()
@Controller('asset')
export class AssetController {
  constructor(private readonly assets: AssetService) {}

  @Put('upload/:id')
  @Public()
  @ApiAnswer('Stored upload', StoredUploadSchema)
  @ApiOperation({ summary: "The local store's one-use upload URL (the upload ticket's uploadUrl): PUT the declared bytes with the declared Content-Type" })
  @ApiErrors(
    [400, 'Content-Type must be the declared image/png', 'The upload is larger than the declared 1024 bytes'],
    [403, 'This upload URL is not valid: it was used already, has expired or was never issued'],
  )
  upload(@Param('id') id: string, @Query('token') token: unknown, @Req() req: Request) {
    return this.assets.receiveUpload(id, token, req);
  }

  @Get('task/:taskId')
  @ApiAnswer('Asset[] (newest first)', [AssetRecordSchema])
  @RequirePermission('task', 'read', TASK)
  @ApiOperation({ summary: "A task's files, newest first" })
  @ApiErrors([403, 'Insufficient API key scope'], [404, 'Task not found'])
  list(@Scope() scope: ResolvedScope, @Param('taskId', Id('Task')) taskId: string) {
    return this.assets.listOfTask(scope.workspaceId, taskId);
  }

  @Get(':id')
  @AllowsSignedOut()
  @ApiKeyScope('task', 'read')
  @ApiResponse({ status: 200, description: "The file's bytes (206: the range asked for)", content: { '*/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiOperation({
    summary:
      "A file's bytes (Range supported), with X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox; raster images inline, anything else as a download. A public project's files need no sign-in",
  })
  @ApiErrors([401, 'Unauthorized'], [403, 'Insufficient API key scope'], [404, 'Asset not found'], [416, "The range is outside the file's 100 bytes"])
  download(@CurrentUser() user: AuthUser | null, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.assets.download(user, id, req, res);
  }

  @Delete(':id')
  @ApiAnswer('Asset (as it was)', AssetRecordSchema)
  @RequirePermission('task', 'read', ASSET)
  @ApiOperation({ summary: 'Delete a file (its uploader, or whoever may change the task); its bytes are removed by the worker' })
  @ApiErrors([403, 'Insufficient permissions: task:update is needed', 'Insufficient API key scope'], [404, 'Asset not found'])
  remove(@Scope() scope: ResolvedScope, @CurrentUser() user: AuthUser, @Param('id', Id('Asset')) id: string) {
    return this.assets.remove(scope, user, id);
  }
}
