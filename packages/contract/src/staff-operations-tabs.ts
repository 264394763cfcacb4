// The back office's pages over the running system: the Dashboard (the Overview group) and the
// Operations group's Deliveries (with its counts, the Apple pushes' proof of delivery and the
// signer certificate's expiry), Privacy and Webhooks.
import { z } from 'zod';
import { DELIVERY_STATE_LABELS, DELIVERY_STATES, FAILED_DELIVERY_STATES, type DeliveryState } from './deliveries.ts';
import {
  adminPermission,
  LIST_ONLY,
  longTextField,
  readOnlyFields,
  singlePermissionPage,
  type PageDeclaration,
  type PermissionDeclaration,
  type ResourceDeclaration,
} from './staff-tabs.ts';

/** The Dashboard's permission, seeded at level 1: the club's and the passes' figures over a range of operating days. */
export const DASHBOARD_VIEW: PermissionDeclaration = {
  name: 'Dashboard View',
  api: '/api/admin/dashboard/',
  method: 'GET',
  minimumAccessLevel: 1,
};

/** The Dashboard tab: the back office's first page (claims, points, members, wallets and deliveries per day). */
export const dashboard = singlePermissionPage('dashboard', 'Dashboard', 'dashboard', DASHBOARD_VIEW);

/**
 * Deliveries to Apple, Google and mail (the outbound calls are jobs): read-only, the failed
 * and dead ones by default and every state by the filter, with counts by state, the Apple
 * pushes' proof of delivery and a Retry action on its own page.
 */
export const deliveries: ResourceDeclaration = {
  key: 'deliveries',
  adminOnly: true,
  title: 'Deliveries',
  api: '/api/admin/deliveries/',
  idField: 'deliveryGUID',
  idColumn: 'id',
  table: 'deliveries',
  operations: LIST_ONLY,
  searchFields: ['deliveryBarcode', 'deliveryRecipient', 'deliveryLastError'],
  defaultSort: { field: 'deliveryUpdated', direction: 'desc' },
  filter: {
    field: 'deliveryState',
    label: 'Show',
    options: [
      { value: 'failed', label: 'Retrying or dead', values: FAILED_DELIVERY_STATES },
      { value: 'all', label: 'Every state', values: [] },
      ...DELIVERY_STATES.map((state) => ({ value: state, label: DELIVERY_STATE_LABELS[state], values: [state] })),
    ],
  },
  page: 'deliveries',
  fields: readOnlyFields([
    { name: 'deliveryUpdated', label: 'Last Try', type: 'datetime', column: 'updatedAt' },
    { name: 'deliveryTarget', label: 'Target', type: 'text', column: 'target' },
    { name: 'deliveryRecipient', label: 'To', type: 'text', column: 'recipient' },
    { name: 'deliveryBarcode', label: 'Ticket', type: 'text', column: 'barcode' },
    { name: 'deliveryState', label: 'State', type: 'text', column: 'state' },
    { name: 'deliveryAttempts', label: 'Attempts', type: 'number', column: 'attempts' },
    { name: 'deliverySent', label: 'Sent', type: 'datetime', column: 'sentAt' },
    { name: 'deliveryFetched', label: 'Fetched', type: 'datetime', column: 'fetchedAt' },
    { name: 'deliveryObjectVersion', label: 'Google Version', type: 'text', column: 'objectVersion' },
    longTextField('deliveryLastError', 'Last Error', 'lastError', { maxLength: 80 }),
  ]),
};

/** Retrying a delivery: its own permission (`Deliveries Retry`), audited. */
export const DELIVERY_RETRY_API = '/api/admin/deliveries/retry/';
export const DELIVERY_RETRY_PERMISSION = 'Deliveries Retry';
export const DELIVERY_RETRY = adminPermission(DELIVERY_RETRY_PERMISSION, DELIVERY_RETRY_API, 'POST');
/** GET {deliveries api}counts: how many deliveries are in each state. */
export const deliveryCounts = z.object(
  Object.fromEntries(DELIVERY_STATES.map((state) => [state, z.number().int()])) as Record<DeliveryState, z.ZodNumber>,
);

/**
 * GET {deliveries api}pushes: the proof of delivery of Apple pushes over the last 24 hours
 * (sent: APNs accepted; fetched: the device then fetched the pass; not fetched within an
 * hour; the push-to-fetch latency), and the registered devices that stopped fetching.
 */
export const applePushReport = z.object({
  since: z.iso.datetime(),
  sent: z.number().int(),
  fetched: z.number().int(),
  notFetchedAfterHour: z.number().int(),
  p50Seconds: z.number().nullable(),
  p95Seconds: z.number().nullable(),
  silentDevices: z.array(
    z.object({
      recipient: z.string(),
      barcode: z.string().nullable(),
      unfetchedPushes: z.number().int(),
      lastPushAt: z.iso.datetime(),
    }),
  ),
});
export type ApplePushReport = z.infer<typeof applePushReport>;

/** GET {deliveries api}certificate: the Apple signer certificate's expiry, with a warning from APPLE_CERT_WARNING_DAYS before it. */
export const appleCertificateStatus = z.object({
  notAfter: z.iso.datetime(),
  /** Whole days left (negative once expired). */
  daysLeft: z.number().int(),
  /** The development chain is in use (no Apple-issued certificate configured). */
  development: z.boolean(),
  warning: z.boolean(),
});
export type AppleCertificateStatus = z.infer<typeof appleCertificateStatus>;

/**
 * The Privacy tab's permissions, each seeded at level 100: finding and exporting everything held
 * about a person (the tab itself), and erasing it.
 */
export const PRIVACY = {
  export: adminPermission('Privacy Export', '/api/admin/privacy/export', 'POST'),
  erase: adminPermission('Privacy Erase', '/api/admin/privacy/erase', 'POST'),
  /** Lifts the lock an erasure left on an activated season pass (a new photo or name may then go on it). */
  liftPassLock: adminPermission('Privacy Lift Pass Lock', '/api/admin/privacy/pass-lock/lift', 'POST'),
};

/** The Privacy tab: a page of its own (find a person by email, phone or barcode; download what is held). */
export const privacy: PageDeclaration = {
  key: 'privacy',
  title: 'Privacy',
  page: 'privacy',
  permission: PRIVACY.export,
  permissions: [PRIVACY.export, PRIVACY.erase, PRIVACY.liftPassLock],
};

/** The Webhooks tab's permission, seeded at level 100: managing the endpoints events are sent to (and their messages). */
export const WEBHOOKS_MANAGE = adminPermission('Webhooks Manage', '/api/admin/webhooks/', 'POST');

/** The Webhooks tab: a page of its own (the endpoints, their secrets, their recent messages). */
export const webhooks = singlePermissionPage('webhooks', 'Webhooks', 'webhooks', WEBHOOKS_MANAGE);
