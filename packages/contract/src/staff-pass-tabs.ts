// The Passes group's table tabs: what shapes the passes guests save (their styles, which
// tickets take which style, test passes, the wallet exceptions and exclusions, the park's
// hours and locations). Every write to one republishes the saved passes (a job).
import { activeField, ALL_OPERATIONS, longTextField, translatedFields, validityFields, type ResourceDeclaration } from './staff-tabs.ts';

export const passCustomizations: ResourceDeclaration = {
  key: 'pass-customizations',
  republishesPasses: true,
  title: 'Pass Customizations',
  api: '/api/admin/pass-customization/',
  idField: 'passCustomizationGUID',
  idColumn: 'passCustomizationGuid',
  table: 'passCustomizations',
  operations: ALL_OPERATIONS,
  searchFields: ['passCustomizationName', 'passCustomizationInstructions'],
  defaultSort: { field: 'passCustomizationName', direction: 'asc' },
  fields: [
    { name: 'passCustomizationName', label: 'Name', type: 'text', column: 'name', required: true, createOnly: true, max: 100 },
    { name: 'passCustomizationBackgroundColor', label: 'Background Color', type: 'color', column: 'backgroundColor', required: true },
    { name: 'passCustomizationColor', label: 'Color', type: 'color', column: 'color', required: true },
    ...translatedFields(longTextField('passCustomizationInstructions', 'Instructions', 'instructions', { required: true, max: 4000 })),
    ...translatedFields(longTextField('passCustomizationGoogleInstructions', 'Google Instructions', 'googleInstructions', { max: 4000 })),
    {
      name: 'passCustomizationGoogleURI',
      label: 'Google URI',
      type: 'text',
      column: 'googleUri',
      cell: 'longText',
      maxLength: 40,
      max: 2000,
    },
    { name: 'passCustomizationHideBarcode', label: 'Hide Barcode', type: 'checkbox', column: 'hideBarcode' },
  ],
};

export const passCustomizationCategories: ResourceDeclaration = {
  key: 'pass-customization-categories',
  republishesPasses: true,
  title: 'Pass Customization Categories',
  api: '/api/admin/pass-customization-categories/',
  idField: 'passCustomizationTTpassCustomizationsGUID',
  idColumn: 'guid',
  table: 'passCustomizationCategories',
  operations: ALL_OPERATIONS,
  searchFields: [
    'passCustomizationTTcategoryID',
    'passCustomizationTTpackID',
    'passCustomizationTTbarcode',
    'passCustomizationTTcustomizationName',
  ],
  defaultSort: { field: 'passCustomizationTTcustomizationName', direction: 'asc' },
  fields: [
    { name: 'passCustomizationTTcategoryID', label: 'Category ID', type: 'text', column: 'categoryId', max: 100 },
    { name: 'passCustomizationTTpackID', label: 'Pack ID', type: 'text', column: 'packId', max: 100 },
    { name: 'passCustomizationTTbarcode', label: 'Barcode', type: 'text', column: 'barcode', max: 18 },
    {
      name: 'passCustomizationTTcustomizationName',
      label: 'Customization',
      type: 'select',
      column: 'customizationName',
      required: true,
      options: 'passCustomizations',
    },
    activeField('passCustomizationTTactive'),
  ],
};

export const testPasses: ResourceDeclaration = {
  key: 'test-passes',
  title: 'Test Passes',
  api: '/api/admin/test-passes/',
  idField: 'testPassesGUID',
  idColumn: 'guid',
  table: 'testPasses',
  operations: ALL_OPERATIONS,
  searchFields: ['testPassesBarcode', 'testPassesDescription'],
  defaultSort: { field: 'testPassesBarcode', direction: 'asc' },
  fields: [
    { name: 'testPassesBarcode', label: 'Barcode', type: 'text', column: 'barcode', required: true, max: 18 },
    { name: 'testPassesDescription', label: 'Description', type: 'text', column: 'description', max: 200 },
    longTextField('testPassesData', 'Data', 'data', { max: 20000 }),
  ],
};

export const walletExceptions: ResourceDeclaration = {
  key: 'wallet-exceptions',
  republishesPasses: true,
  title: 'Wallet Exceptions',
  api: '/api/admin/wallet-exception/',
  idField: 'walletExceptionGUID',
  idColumn: 'guid',
  table: 'walletExceptions',
  operations: ALL_OPERATIONS,
  searchFields: ['walletExceptionOrderNumber'],
  defaultSort: { field: 'walletExceptionOrderNumber', direction: 'asc' },
  fields: [
    { name: 'walletExceptionOrderNumber', label: 'Order Number', type: 'text', column: 'orderNumber', required: true, max: 20 },
    { name: 'walletExceptionSkipRegistration', label: 'Skip Registration', type: 'checkbox', column: 'skipRegistration' },
    { name: 'walletExceptionSkipImage', label: 'Skip Image', type: 'checkbox', column: 'skipImage' },
  ],
};

export const walletItemExclusions: ResourceDeclaration = {
  key: 'wallet-item-exclusions',
  republishesPasses: true,
  title: 'Wallet Item Exclusions',
  api: '/api/admin/wallet-item-exclusion/',
  idField: 'walletItemExclusionsGUID',
  idColumn: 'guid',
  table: 'walletItemExclusions',
  operations: ALL_OPERATIONS,
  searchFields: ['walletItemExclusionMerchItemID', 'walletItemExclusionMerchPackID', 'walletItemExclusionCustomError'],
  // An exclusion that names no item and no pack excludes nothing.
  requireOneOf: ['walletItemExclusionMerchItemID', 'walletItemExclusionMerchPackID'],
  defaultSort: { field: 'walletItemExclusionCreatedTimestamp', direction: 'desc' },
  fields: [
    { name: 'walletItemExclusionMerchItemID', label: 'Merch Item ID', type: 'text', column: 'merchItemId', max: 100 },
    { name: 'walletItemExclusionMerchPackID', label: 'Merch Pack ID', type: 'text', column: 'merchPackId', max: 100 },
    { name: 'walletItemExclusionCreatedTimestamp', label: 'Created', type: 'datetime', column: 'createdAt', readOnly: true },
    ...translatedFields(longTextField('walletItemExclusionCustomError', 'Custom Error', 'customError', { max: 2000 })),
    ...validityFields('walletItemExclusion'),
    { name: 'walletItemExclusionExcludeNFC', label: 'Exclude NFC', type: 'checkbox', column: 'excludeNfc' },
    activeField('walletItemExclusionActive'),
  ],
};

/**
 * The park's operating days (one row each: when it opens and closes). A dated admission's
 * pass comes to the lock screen during its visit day's hours, a season pass's on the next
 * operating days; a change republishes the saved passes.
 */
export const parkHours: ResourceDeclaration = {
  key: 'park-hours',
  parkWide: true,
  title: 'Park Hours',
  api: '/api/admin/park-hours/',
  idField: 'parkHoursGUID',
  idColumn: 'guid',
  table: 'parkHours',
  operations: ALL_OPERATIONS,
  searchFields: [],
  defaultSort: { field: 'parkHoursOpens', direction: 'asc' },
  fields: [
    { name: 'parkHoursOpens', label: 'Opens', type: 'datetime', column: 'opensAt', required: true },
    { name: 'parkHoursCloses', label: 'Closes', type: 'datetime', column: 'closesAt', required: true },
  ],
};

/**
 * What the park tells every passholder (a closing time moved, a ride down for the day): shown
 * on every ticket's pass until deleted; a change is a park-wide wave (one request per Google
 * class, one push per Apple device).
 */
export const parkNotices: ResourceDeclaration = {
  key: 'park-notices',
  parkWide: true,
  title: 'Park Notices',
  api: '/api/admin/park-notices/',
  idField: 'parkNoticeGUID',
  idColumn: 'guid',
  table: 'parkNotices',
  operations: ALL_OPERATIONS,
  searchFields: ['parkNoticeText'],
  defaultSort: { field: 'parkNoticeCreated', direction: 'desc' },
  fields: [
    ...translatedFields({ name: 'parkNoticeText', label: 'Notice', type: 'text', column: 'text', required: true, max: 200 }),
    { name: 'parkNoticeCreated', label: 'Created', type: 'datetime', column: 'createdAt', readOnly: true },
  ],
};

/** Most park locations: Apple Wallet and Google Wallet use ten per pass. */
export const MAX_PARK_LOCATIONS = 10;

/** A coordinate in degrees, between -bound and bound, to six decimals (about 10 cm). */
const coordinate = (name: string, label: string, column: string, bound: number) =>
  ({ name, label, type: 'number', column, required: true, min: -bound, maxValue: bound, decimals: 6 }) as const;

/**
 * Where at the park passes come to the lock screen (the main gate, the pier entrance): at
 * most ten; Google Wallet's classes carry them as merchant locations. A change republishes
 * the saved passes and the classes.
 */
export const parkLocations: ResourceDeclaration = {
  key: 'park-locations',
  parkWide: true,
  title: 'Park Locations',
  api: '/api/admin/park-locations/',
  idField: 'parkLocationGUID',
  idColumn: 'guid',
  table: 'parkLocations',
  operations: ALL_OPERATIONS,
  searchFields: ['parkLocationName', 'parkLocationRelevantText'],
  defaultSort: { field: 'parkLocationName', direction: 'asc' },
  fields: [
    { name: 'parkLocationName', label: 'Name', type: 'text', column: 'name', required: true, max: 100 },
    coordinate('parkLocationLatitude', 'Latitude', 'latitude', 90),
    coordinate('parkLocationLongitude', 'Longitude', 'longitude', 180),
    ...translatedFields({ name: 'parkLocationRelevantText', label: 'Lock Screen Text', type: 'text', column: 'relevantText', max: 100 }),
  ],
};
