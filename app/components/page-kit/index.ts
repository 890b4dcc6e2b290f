// The page kit the console's screens share (STYLE.md): a store page with its header, a list
// card with the count and the pagination above and below, and a form page with the close icon
// and its discard dialog. A new screen composes these instead of copying the last one.
export { FormPage } from './form-page';
export { ListSection, type ListSectionProps, pageRange } from './list-section';
export { StorePage, StorePageHeader, useStoreHeader } from './store-page';
export { Page } from '~/components/page';
export { DeleteDialog, type DeleteDialogProps } from './delete-dialog';
export { FilterSelect, FilterText, ListFilters, type ListFiltersProps, useListHref } from './list-filters';
export { type MasterRow, MasterTable } from './master-table';
export { useStackedTable } from './stacked-table';
