// One tab: its table with server-side paging, sorting and search, the add button and the
// clickable rows that open the modal; controls show only with the member's permissions.
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { tabPermission, type FieldDeclaration, type ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { ResourceCell } from './resource-cells.tsx';
import { ResourceForm } from './resource-form.tsx';
import { exportPath, listQueryOptions, PAGE_SIZE, type ListParams, type Row } from './resource-api.ts';
import { ExportButton } from './export-button.tsx';
import { ActionsHeader } from './staff-table.tsx';

export interface ResourceListProps {
  resource: ResourceDeclaration;
  user: StaffUser;
  /** A tab's own page may add actions to each row (a last column). */
  rowActions?: (row: Row) => ReactNode;
  /** ...and show something between the heading and the table. */
  intro?: ReactNode;
}

export function ResourceList({ resource, user, rowActions, intro }: ResourceListProps) {
  const canCreate = resource.operations.create && hasPermission(user, tabPermission(resource, 'Create'));
  const canUpdate = resource.operations.update && hasPermission(user, tabPermission(resource, 'Update'));
  const canDelete = resource.operations.delete && hasPermission(user, tabPermission(resource, 'Delete'));
  const rowsOpen = canUpdate || canDelete;
  const columns = resource.fields.filter((f) => !f.writeOnly);

  const [params, setParams] = useState<ListParams>({
    page: 1,
    pageSize: PAGE_SIZE,
    sort: resource.defaultSort.field,
    direction: resource.defaultSort.direction,
    search: '',
    ...(resource.filter && { filter: resource.filter.options[0]!.value }),
  });
  const [searchText, setSearchText] = useState('');
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const list = useQuery(listQueryOptions(resource, params));
  const handleError = useStaffErrorHandler();
  const searchId = useId();
  const filterId = useId();

  useEffect(() => {
    if (list.error) handleError(list.error);
  }, [list.error, handleError]);

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / params.pageSize));
  const rows = list.data?.rows ?? [];
  const first = total === 0 ? 0 : (params.page - 1) * params.pageSize + 1;
  const last = Math.min(total, params.page * params.pageSize);

  const sortBy = (field: FieldDeclaration) =>
    setParams((p) => ({ ...p, page: 1, sort: field.name, direction: p.sort === field.name && p.direction === 'asc' ? 'desc' : 'asc' }));

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setParams((p) => ({ ...p, page: 1, search: searchText.trim() }));
  };

  return (
    <section aria-labelledby={`${resource.key}-heading`} className="staff-resource">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 id={`${resource.key}-heading`} className="h4 mb-0 me-auto">
          {resource.title}
        </h2>
        {resource.filter ? (
          <div className="d-flex align-items-center gap-2 staff-filter">
            <Form.Label htmlFor={filterId} className="mb-0 text-nowrap">
              {resource.filter.label}
            </Form.Label>
            <Form.Select
              id={filterId}
              value={params.filter}
              onChange={(e) => setParams((p) => ({ ...p, page: 1, filter: e.target.value }))}
            >
              {resource.filter.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Form.Select>
          </div>
        ) : null}
        {resource.searchFields.length > 0 ? (
          <Form role="search" onSubmit={search} className="staff-search">
            <InputGroup>
              <Form.Label htmlFor={searchId} visuallyHidden>
                Search {resource.title}
              </Form.Label>
              <Form.Control
                id={searchId}
                type="search"
                placeholder="Search"
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
              />
              <Button type="submit" variant="outline-primary">
                Search
              </Button>
            </InputGroup>
          </Form>
        ) : null}
        <ExportButton path={exportPath(resource, params)} fallbackName={`${resource.key}.csv`} />
        {canCreate ? (
          <Button variant="primary" onClick={() => setEditing({ row: null })}>
            Add New
          </Button>
        ) : null}
      </div>
      {intro}

      <Table responsive striped hover={rowsOpen} size="sm" className="staff-table align-middle" aria-busy={list.isFetching}>
        <thead>
          <tr>
            {rowsOpen ? <ActionsHeader label="Edit" /> : null}
            {columns.map((field) => {
              const sorted = params.sort === field.name;
              return (
                <th key={field.name} scope="col" aria-sort={sorted ? (params.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                  {field.computed ? (
                    // Counted when read, not a column the list can sort on.
                    field.label
                  ) : (
                    <button type="button" className="staff-sort" onClick={() => sortBy(field)}>
                      {field.label}
                      <span aria-hidden="true" className="staff-sort__arrow">
                        {sorted ? (params.direction === 'asc' ? '▲' : '▼') : ''}
                      </span>
                    </button>
                  )}
                </th>
              );
            })}
            {rowActions ? <ActionsHeader /> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = String(row[resource.idField]);
            return (
              <tr key={key} className={rowsOpen ? 'staff-row--open' : undefined} onClick={rowsOpen ? () => setEditing({ row }) : undefined}>
                {rowsOpen ? (
                  <td>
                    <Button
                      size="sm"
                      variant="outline-primary"
                      onClick={(e) => {
                        e.stopPropagation();
                        setEditing({ row });
                      }}
                    >
                      Edit
                    </Button>
                  </td>
                ) : null}
                {columns.map((field) => (
                  <td key={field.name} className={`staff-cell staff-cell--${field.type}`}>
                    <ResourceCell field={field} row={row} />
                  </td>
                ))}
                {rowActions ? <td onClick={(e) => e.stopPropagation()}>{rowActions(row)}</td> : null}
              </tr>
            );
          })}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length + (rowsOpen ? 1 : 0) + (rowActions ? 1 : 0)} className="text-center text-body-secondary py-4">
                {list.isPending ? (
                  <>
                    <Spinner animation="border" size="sm" aria-hidden="true" className="me-2" />
                    Loading...
                  </>
                ) : list.isError ? (
                  'Unable to load this list.'
                ) : (
                  'No records.'
                )}
              </td>
            </tr>
          ) : null}
        </tbody>
      </Table>

      <nav className="d-flex flex-wrap align-items-center gap-2" aria-label={`${resource.title} pages`}>
        <span className="me-auto text-body-secondary" aria-live="polite">
          {total === 0 ? 'No records' : `${first}–${last} of ${total}`}
        </span>
        <Button
          variant="outline-secondary"
          size="sm"
          disabled={params.page <= 1}
          onClick={() => setParams((p) => ({ ...p, page: p.page - 1 }))}
        >
          Previous
        </Button>
        <span>
          Page {params.page} of {pages}
        </span>
        <Button
          variant="outline-secondary"
          size="sm"
          disabled={params.page >= pages}
          onClick={() => setParams((p) => ({ ...p, page: p.page + 1 }))}
        >
          Next
        </Button>
      </nav>

      {editing ? (
        <ResourceForm resource={resource} row={editing.row} canUpdate={canUpdate} canDelete={canDelete} onClose={() => setEditing(null)} />
      ) : null}
    </section>
  );
}
