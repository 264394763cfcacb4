import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, errorCodeForStatus, isErrorCode } from './errors.ts';

describe('the error codes', () => {
  it('name a code for each status an answer may carry without one', () => {
    expect(errorCodeForStatus(400)).toBe('VALIDATION_FAILED');
    expect(errorCodeForStatus(401)).toBe('UNAUTHORIZED');
    expect(errorCodeForStatus(404)).toBe('NOT_FOUND');
    expect(errorCodeForStatus(408)).toBe('TOKEN_EXPIRED');
    expect(errorCodeForStatus(410)).toBe('PASS_NO_LONGER_SHARED');
    expect(errorCodeForStatus(429)).toBe('TOO_MANY_ATTEMPTS');
    expect(errorCodeForStatus(502)).toBe('INTERNAL');
    expect(errorCodeForStatus(503)).toBe('DATABASE_UNAVAILABLE');
    expect(errorCodeForStatus(418)).toBeNull();
  });

  it('are known by name only', () => {
    for (const code of Object.keys(ERROR_STATUS)) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('FST_ERR_CTP_EMPTY_JSON_BODY')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });
});
