// "Only write when something differs": the feeds resend whole resources, most often unchanged.

/** True when a value of `next` differs from the same column of `current` (dates by instant). */
export function differs(current: Record<string, unknown>, next: Record<string, unknown>): boolean {
  return Object.entries(next).some(([key, value]) => {
    const held = current[key] ?? null;
    const sent = value ?? null;
    if (held instanceof Date && sent instanceof Date) return held.getTime() !== sent.getTime();
    return held !== sent;
  });
}
