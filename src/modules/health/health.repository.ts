import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The database as the health check sees it: reachable or not. */
@Injectable()
export class HealthRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async ping(): Promise<void> {
    await this.ds.query('SELECT 1');
  }
}
