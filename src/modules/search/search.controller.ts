import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyScopeCheckedByHandler } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { SearchQueryDto } from './dto/search-query.dto';
import { SearchService } from './search.service';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { SearchAnswerSchema } from '../search/search.schema';

@ApiTags('search')
@ApiBearerAuth()
@Controller('search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Get()
  @ApiAnswer('Search answer', SearchAnswerSchema)
  @ApiKeyScopeCheckedByHandler()
  @ApiOperation({ summary: 'Search tasks, projects, workspaces, comments and activities in the caller’s workspaces' })
  @ApiErrors(
    [400, 'q must be at least 1 character', 'Limit must be at least 1', 'Limit must not exceed 50', 'type must be one of: all, tasks, projects, workspaces, comments, activities'],
    [403, 'Insufficient API key scope'],
    [404, 'Workspace not found', 'Project not found'],
  )
  search(@CurrentUser() user: AuthUser, @Query() query: SearchQueryDto) {
    return this.searchService.search(user, query);
  }
}
