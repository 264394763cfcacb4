// The Team group: the staff members, the permissions they hold by access level, their
// sessions and the audit log of every change. Only administrators list and change them.
import {
  activeField,
  ALL_OPERATIONS,
  LIST_ONLY,
  longTextField,
  readOnlyFields,
  wholeNumberField,
  type ResourceDeclaration,
} from './staff-tabs.ts';

/** An access level: a member holds a permission when their level reaches its minimum. */
const ACCESS_LEVEL = { min: 0, maxValue: 1000 };

export const teamMembers: ResourceDeclaration = {
  key: 'team',
  adminOnly: true,
  title: 'Team',
  api: '/api/admin/team-member/',
  idField: 'teamMemberGUID',
  idColumn: 'guid',
  table: 'teamMembers',
  operations: ALL_OPERATIONS,
  searchFields: ['teamMemberFirstName', 'teamMemberLastName', 'teamMemberUsername', 'teamMemberInternalID'],
  defaultSort: { field: 'teamMemberLastName', direction: 'asc' },
  fields: [
    { name: 'teamMemberFirstName', label: 'First Name', type: 'text', column: 'firstName', required: true, max: 100 },
    { name: 'teamMemberLastName', label: 'Last Name', type: 'text', column: 'lastName', required: true, max: 100 },
    { name: 'teamMemberInternalID', label: 'Internal ID', type: 'text', column: 'internalId', required: true, max: 100 },
    { name: 'teamMemberUsername', label: 'Email', type: 'text', column: 'username', required: true, max: 254, format: 'email' },
    // Stored as an argon2id hash in passwordHash; at least 12 characters.
    {
      name: 'teamMemberPassword',
      label: 'Change Password',
      type: 'password',
      column: 'passwordHash',
      writeOnly: true,
      requiredOnCreate: true,
    },
    longTextField('teamMemberDescription', 'Description', 'description', { max: 2000 }),
    wholeNumberField('teamMemberAccessLevel', 'Access Level', 'accessLevel', ACCESS_LEVEL, { required: true }),
    { ...activeField('teamMemberActive'), notOnCreate: true },
  ],
};

export const permissions: ResourceDeclaration = {
  key: 'permissions',
  adminOnly: true,
  title: 'Permissions',
  api: '/api/admin/permission/',
  idField: 'permissionGUID',
  idColumn: 'guid',
  table: 'permissions',
  operations: ALL_OPERATIONS,
  searchFields: ['permissionName', 'permissionAPI'],
  defaultSort: { field: 'permissionName', direction: 'asc' },
  fields: [
    { name: 'permissionName', label: 'Name', type: 'text', column: 'name', required: true, max: 100 },
    { name: 'permissionAPI', label: 'API', type: 'text', column: 'api', max: 200 },
    { name: 'permissionMethod', label: 'Method', type: 'text', column: 'method', max: 10 },
    wholeNumberField('permissionMinimumAccessLevel', 'Minimum Access Level', 'minimumAccessLevel', ACCESS_LEVEL, { required: true }),
    activeField('permissionActive'),
  ],
};

export const sessions: ResourceDeclaration = {
  key: 'session',
  adminOnly: true,
  title: 'Session',
  api: '/api/admin/session/',
  idField: 'sessionGUID',
  idColumn: 'guid',
  table: 'staffSessions',
  operations: { create: false, update: true, delete: false },
  searchFields: [],
  defaultSort: { field: 'sessionStartTimestamp', direction: 'desc' },
  fields: [
    { name: 'teamMemberGUID', label: 'Team Member', type: 'select', column: 'teamMemberGuid', options: 'teamMembers', readOnly: true },
    { name: 'sessionStartTimestamp', label: 'Start', type: 'datetime', column: 'startTimestamp', readOnly: true },
    { name: 'sessionEndTimestamp', label: 'End', type: 'datetime', column: 'endTimestamp', required: true },
    activeField('sessionActive'),
    // A fingerprint of the token's hash, never the token: only the hash is stored.
    {
      name: 'sessionAccessToken',
      label: 'Access Token',
      type: 'text',
      column: 'accessTokenHash',
      readOnly: true,
      cell: 'longText',
      maxLength: 50,
    },
  ],
};

export const auditLog: ResourceDeclaration = {
  key: 'audit-log',
  adminOnly: true,
  title: 'Audit Log',
  api: '/api/admin/audit-log/',
  idField: 'auditLogID',
  idColumn: 'id',
  idType: 'integer',
  table: 'auditLog',
  operations: LIST_ONLY,
  searchFields: ['auditLogUsername', 'auditLogAction', 'auditLogResource', 'auditLogRecordID'],
  defaultSort: { field: 'auditLogAt', direction: 'desc' },
  fields: readOnlyFields([
    { name: 'auditLogAt', label: 'When', type: 'datetime', column: 'at' },
    { name: 'auditLogUsername', label: 'Who', type: 'text', column: 'username' },
    { name: 'auditLogAction', label: 'Action', type: 'text', column: 'action' },
    { name: 'auditLogResource', label: 'Tab', type: 'text', column: 'resource' },
    { name: 'auditLogRecordID', label: 'Record', type: 'text', column: 'recordId' },
    longTextField('auditLogBefore', 'Before', 'before', { maxLength: 80 }),
    longTextField('auditLogAfter', 'After', 'after', { maxLength: 80 }),
  ]),
};
