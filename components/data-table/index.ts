// The console's table kit (docs/console-ui.md, "DataTable").
export { DataTable, type DataTableProps } from "./data-table";
export { ColumnMenu } from "./column-menu";
export { EmptyStateRow, ErrorMessage, ErrorStateRow, LoadingRow } from "./states";
export type { DataTablePaging, DataTableSelection } from "./types";
export { useColumnVisibility } from "./use-column-visibility";
export { useServerPaging } from "./use-server-paging";
export { useClientPaging } from "./use-client-paging";
export { FilterButtons } from "./filter-buttons";
