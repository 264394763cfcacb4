// The ticket core's topic. A key is the reason, for the log.

/**
 * What any pass shows may have changed: a staff edit of what the order object draws from
 * (pass customizations, their categories, wallet exceptions and exclusions, wristband merch).
 */
export const PASSES_CHANGED = 'passes.changed';

/**
 * What every pass shows changed: the park's hours or locations (a staff edit). Reaches every
 * wallet as a park-wide wave (wallet/deliveries/park-waves.service.ts), not pass by pass.
 */
export const PARK_CHANGED = 'park.changed';
