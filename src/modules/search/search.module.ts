import { Module } from '@nestjs/common';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';
import { SearchStatsService } from './search-stats.service';

@Module({ controllers: [SearchController], providers: [SearchService, SearchStatsService, SearchRepository] })
export class SearchModule {}
