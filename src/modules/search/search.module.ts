import { Module } from '@nestjs/common';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { SearchStatsService } from './search-stats.service';

@Module({ controllers: [SearchController], providers: [SearchService, SearchStatsService] })
export class SearchModule {}
