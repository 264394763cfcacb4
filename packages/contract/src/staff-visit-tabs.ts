// The Reservations group (docs/visit-reservations.md): the entry windows of each operating day
// with their passholder capacity (and what is booked and waitlisted), the pass products that
// need a reservation, and the blockout days.
import { ALL_OPERATIONS, readOnlyFields, wholeNumberField, type FieldDeclaration, type ResourceDeclaration } from './staff-tabs.ts';

/** A window's passholder capacity. */
export const VISIT_CAPACITY = { min: 0, maxValue: 1_000_000 };

/** Which product a rule names: a pass customization category's id, or a product by its name (either). */
const productFields = (prefix: string): FieldDeclaration[] => [
  { name: `${prefix}CategoryID`, label: 'Category ID', type: 'text', column: 'categoryId', max: 50 },
  { name: `${prefix}Product`, label: 'Product', type: 'text', column: 'product', max: 200 },
];

export const visitWindows: ResourceDeclaration = {
  key: 'visit-windows',
  title: 'Entry Windows',
  api: '/api/admin/visit-windows/',
  idField: 'visitWindowID',
  idColumn: 'id',
  table: 'visitWindows',
  operations: ALL_OPERATIONS,
  searchFields: [],
  defaultSort: { field: 'visitWindowStarts', direction: 'asc' },
  fields: [
    { name: 'visitWindowStarts', label: 'Starts', type: 'datetime', column: 'startsAt', required: true },
    { name: 'visitWindowEnds', label: 'Ends', type: 'datetime', column: 'endsAt', required: true },
    wholeNumberField('visitWindowCapacity', 'Passholder Capacity', 'capacity', VISIT_CAPACITY, { required: true }),
    ...readOnlyFields([
      { name: 'visitWindowBooked', label: 'Booked', type: 'number', column: 'booked', computed: true },
      { name: 'visitWindowWaitlisted', label: 'Waitlisted', type: 'number', column: 'waitlisted', computed: true },
    ]),
  ],
};

export const visitProducts: ResourceDeclaration = {
  key: 'visit-products',
  title: 'Reservation Products',
  api: '/api/admin/visit-products/',
  idField: 'visitProductID',
  idColumn: 'id',
  table: 'visitProducts',
  operations: ALL_OPERATIONS,
  searchFields: ['visitProductCategoryID', 'visitProductProduct'],
  defaultSort: { field: 'visitProductProduct', direction: 'asc' },
  requireOneOf: ['visitProductCategoryID', 'visitProductProduct'],
  fields: productFields('visitProduct'),
};

export const visitBlockouts: ResourceDeclaration = {
  key: 'visit-blockouts',
  title: 'Blockout Days',
  api: '/api/admin/visit-blockouts/',
  idField: 'visitBlockoutID',
  idColumn: 'id',
  table: 'visitBlockouts',
  operations: ALL_OPERATIONS,
  searchFields: ['visitBlockoutCategoryID', 'visitBlockoutProduct'],
  defaultSort: { field: 'visitBlockoutDay', direction: 'asc' },
  // With neither a category nor a product, the day is blocked for every reservation product.
  fields: [{ name: 'visitBlockoutDay', label: 'Day', type: 'date', column: 'day', required: true }, ...productFields('visitBlockout')],
};
