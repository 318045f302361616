import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { PublicProjectService } from './public-project.service';
import { PublicProjectSchema } from '../project/project.schema';

@ApiTags('project')
@Controller('public-project')
export class PublicProjectController {
  constructor(private readonly boards: PublicProjectService) {}

  @Public()
  @Get(':id')
  @ApiAnswer('Public project', PublicProjectSchema)
  @ApiOperation({
    summary: 'The read-only board of a project marked public: its columns with their tasks, planned and archived tasks; counted per client address against RATE_LIMIT_API',
  })
  @ApiErrors([404, 'Project not found'], [429, 'Too many requests'])
  board(@Param('id') id: string, @Req() req: Request) {
    return this.boards.board(id, req.ip);
  }
}
