import { z } from 'zod';

/** The one error shape every 4xx/5xx answer of the API carries. */
export const apiError = z.object({
  statusCode: z.number().int(),
  error: z.string().describe('A stable code, e.g. ORDER_NOT_FOUND or VALIDATION_FAILED'),
  message: z.string().describe('A sentence fit to show a person'),
  fields: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('One entry per bad field, for validation failures'),
});
export type ApiError = z.infer<typeof apiError>;

/** Guest-facing texts of guest-app.md section 8 that the server answers with. */
export const guestMessages = {
  orderNotFound: 'Unable to locate order',
  registerFailed: 'Unable to register',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  passNoLongerShared: 'Pass No Longer Shared',
  /** guest-app.md section 8, with SUPPORT_EMAIL. */
  alreadyInWallet: (email: string) => `This pass has already been added to a wallet. Please contact ${email} for assistance.`,
} as const;
