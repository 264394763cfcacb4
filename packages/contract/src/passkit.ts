// Apple's PassKit web service (Wallet Passes: "PassKit web service reference"), served under
// PUBLIC_URL/api/passkit: what devices send and receive. Apple fixes these shapes.
import { z } from 'zod';

export const passkitDeviceParams = z.object({
  deviceLibraryIdentifier: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,128}$/, 'Device library identifier is not valid')
    .describe('The device’s identifier, chosen by the device'),
  passTypeIdentifier: z.string().max(255).describe('The pass type id, e.g. pass.com.example.boardwalk'),
});

export const passkitRegistrationParams = passkitDeviceParams.extend({
  serialNumber: z.uuid('Serial number is not valid').describe('The pass’s serialNumber'),
});

export const passkitPassParams = z.object({
  passTypeIdentifier: z.string().max(255),
  serialNumber: z.uuid('Serial number is not valid'),
});

/** Body of a registration: the token APNs pushes to. */
export const passkitRegistrationBody = z.object({
  pushToken: z.string().regex(/^[0-9a-fA-F]{8,200}$/, 'Push token is not valid'),
});

export const passkitUpdatedQuery = z.object({
  passesUpdatedSince: z
    .string()
    .regex(/^\d{1,19}$/, 'Update tag is not valid')
    // A tag is microseconds in a PostgreSQL bigint.
    .refine((tag) => !/^\d+$/.test(tag) || BigInt(tag) <= 9_223_372_036_854_775_807n, 'Update tag is not valid')
    .optional()
    .describe('The lastUpdated tag of the previous answer'),
});

/** The serial numbers of this device's passes updated since the tag, and the new tag. */
export const passkitSerialNumbers = z.object({
  serialNumbers: z.array(z.string()),
  lastUpdated: z.string(),
});

export const passkitLogBody = z.object({
  logs: z.array(z.string().max(10_000)).max(100),
});
