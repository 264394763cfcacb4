// The staff calls (staff-back-office.md section 7): every admin call sends the stored bearer
// token. Failures become the typed errors of lib/api-client.ts, which
// staff-errors.ts turns into the texts of decisions.md "Back office errors".
import { apiError } from '@boardwalk/contract/errors';
import { staffLoginResult } from '@boardwalk/contract/staff-auth';
import { ApiRequestError, NetworkError } from '../../lib/api-client.ts';
import { getStaffUser, type StaffUser } from './staff-session.ts';

export interface StaffResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

export async function staffFetch(
  path: string,
  { method = 'GET', body, signal, token }: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown; signal?: AbortSignal; token?: string | null } = {},
): Promise<StaffResponse> {
  const bearer = token === undefined ? getStaffUser()?.accessToken : token;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? null : JSON.stringify(body), credentials: 'same-origin', ...(signal && { signal }) });
    text = await response.text();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new NetworkError('The request did not reach the server', { cause });
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const parsed = apiError.safeParse(json);
    throw new ApiRequestError(response.status, parsed.success ? parsed.data : null, null);
  }
  return { status: response.status, headers: response.headers, json };
}

/** POST /app/login/: only 201 is a success (section 4); the body is read only then. */
export async function loginStaff(teamMemberUsername: string, teamMemberPassword: string): Promise<StaffUser> {
  const { status, json } = await staffFetch('/app/login/', { method: 'POST', body: { teamMemberUsername, teamMemberPassword }, token: null });
  if (status !== 201) throw new Error(`Unexpected login answer ${status}`);
  return staffLoginResult.parse(json);
}

/** DELETE /app/logout/{sessionGUID} with that session's token; a failure changes nothing for the member. */
export async function logoutStaff(user: StaffUser): Promise<void> {
  await staffFetch(`/app/logout/${encodeURIComponent(user.sessionGUID)}`, { method: 'DELETE', token: user.accessToken });
}
