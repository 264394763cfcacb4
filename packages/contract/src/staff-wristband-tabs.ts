// The Wristbands group: which merch packs come with a wristband, and the bands guests bound
// to their tickets (with a Deactivate action for a lost band).
import {
  activeField,
  ALL_OPERATIONS,
  LIST_ONLY,
  readOnlyFields,
  validityFields,
  type PermissionDeclaration,
  type ResourceDeclaration,
} from './staff-tabs.ts';

export const wristbandMerchPackIds: ResourceDeclaration = {
  key: 'wristband-merch-pack-ids',
  republishesPasses: true,
  title: 'Wristband Merch Pack IDs',
  api: '/api/admin/wristband-merch-pack-ids/',
  idField: 'wristbandMerchPackIDsMerchItemGUID',
  idColumn: 'guid',
  table: 'wristbandMerchPackIds',
  operations: ALL_OPERATIONS,
  searchFields: ['wristbandMerchPackIDsMerchItemID'],
  defaultSort: { field: 'wristbandMerchPackIDsCreated', direction: 'desc' },
  fields: [
    // Numeric, kept as text like the ticketing feed's pack ids it is matched with.
    {
      name: 'wristbandMerchPackIDsMerchItemID',
      label: 'Merch Item ID',
      type: 'number',
      column: 'merchItemId',
      required: true,
      min: 0,
      maxValue: 999_999_999_999,
    },
    { name: 'wristbandMerchPackIDsCreated', label: 'Created', type: 'datetime', column: 'createdAt', readOnly: true },
    activeField('wristbandMerchPackIDsActive'),
    ...validityFields('wristbandMerchPackIDs'),
  ],
};

/**
 * Wristbands guests bound to their tickets (POST /api/wristband/activate/): read-only, searchable
 * by band or ticket, with a Deactivate action for a lost band on its own page.
 */
export const wristbandBindings: ResourceDeclaration = {
  key: 'wristbands',
  title: 'Wristbands',
  api: '/api/admin/wristbands/',
  idField: 'wristbandBindingGUID',
  idColumn: 'id',
  table: 'wristbandBindings',
  operations: LIST_ONLY,
  searchFields: ['wristbandBarcode', 'wristbandTicketBarcode'],
  defaultSort: { field: 'wristbandBoundAt', direction: 'desc' },
  page: 'wristbands',
  fields: readOnlyFields([
    { name: 'wristbandBarcode', label: 'Band', type: 'text', column: 'wristbandBarcode' },
    { name: 'wristbandTicketBarcode', label: 'Ticket Barcode', type: 'text', column: 'barcode' },
    { name: 'wristbandOrderID', label: 'Order', type: 'text', column: 'orderId' },
    { name: 'wristbandBoundAt', label: 'Bound At', type: 'datetime', column: 'activatedAt' },
    { name: 'wristbandDeactivatedAt', label: 'Deactivated At', type: 'datetime', column: 'deactivatedAt' },
    { name: 'wristbandDeactivatedBy', label: 'Deactivated By', type: 'text', column: 'deactivatedBy' },
  ]),
};

/**
 * Deactivating a lost band: its own permission (`Wristbands Deactivate`), audited. Level 10,
 * like the changes of the configuration tabs: guest services supervisors replace lost bands,
 * and a deactivation only lets the ticket take a new band (the lost one never binds again).
 */
export const WRISTBAND_DEACTIVATE_API = '/api/admin/wristbands/deactivate/';
export const WRISTBAND_DEACTIVATE_PERMISSION = 'Wristbands Deactivate';
export const WRISTBAND_DEACTIVATE: PermissionDeclaration = {
  name: WRISTBAND_DEACTIVATE_PERMISSION,
  api: WRISTBAND_DEACTIVATE_API,
  method: 'POST',
  minimumAccessLevel: 10,
};
