/**
 * The Search answer of docs/records.md: all five arrays, those outside the requested type empty.
 * Each array is built by the search statement (search.sql.ts) as JSON of the section's records.
 */
export interface SearchResult {
  tasks: unknown[];
  projects: unknown[];
  workspaces: unknown[];
  comments: unknown[];
  activities: unknown[];
}
