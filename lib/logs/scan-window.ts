// The most rows a usage-log search by a filter that no index serves reads (lib/logs/query.ts):
// shared by the server and the console, which tells the user when a search stopped there.
export const SCAN_WINDOW = 30_000;
