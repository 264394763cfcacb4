// The staff calls: every admin call sends the stored bearer token through the one client
// (lib/api-client.ts); staff-errors.ts turns its errors into the back office's texts (401 logs
// out, 403 a permission toast, 400/409 the server's message).
import { z } from 'zod';
import { staffLoginResult } from '@boardwalk/contract/staff-auth';
import { apiFile, apiResponse, type ContractSchema, type DownloadedFile, type RequestOptions } from '../../lib/api-client.ts';
import { getStaffUser, type StaffUser } from './staff-session.ts';

/** A staff call with the member's token (or the given one), its answer parsed by the schema. */
export function staffRequest<S extends ContractSchema>(path: string, options: RequestOptions & { schema: S }) {
  return apiResponse(path, { ...options, token: options.token === undefined ? getStaffUser()?.accessToken : options.token });
}

/** A file a staff call answers (a CSV export), with the member's token. */
export function staffFile(path: string, options: { accept: string; fallbackName: string }): Promise<DownloadedFile> {
  return apiFile(path, { ...options, token: getStaffUser()?.accessToken ?? null });
}

/** POST /app/login/: only 201 is a success. */
export async function loginStaff(teamMemberUsername: string, teamMemberPassword: string): Promise<StaffUser> {
  const { status, data } = await staffRequest('/app/login/', {
    method: 'POST',
    body: { teamMemberUsername, teamMemberPassword },
    token: null,
    schema: staffLoginResult,
  });
  if (status !== 201) throw new Error(`Unexpected login answer ${status}`);
  return data;
}

/** DELETE /app/logout/{sessionGUID} with that session's token; a failure changes nothing for the member. */
export async function logoutStaff(user: StaffUser): Promise<void> {
  await staffRequest(`/app/logout/${encodeURIComponent(user.sessionGUID)}`, {
    method: 'DELETE',
    token: user.accessToken,
    schema: z.unknown(),
  });
}
