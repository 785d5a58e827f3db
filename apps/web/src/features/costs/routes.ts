/** Paths of the cost area, kept apart so the sidebar does not load the area. */
export const COSTS_ROUTE = '/costs';
export const COST_ROUTE = '/costs/cost';
export const PEAKS_ROUTE = '/costs/peaks';
export const TARIFF_ROUTE = '/costs/tariff';
