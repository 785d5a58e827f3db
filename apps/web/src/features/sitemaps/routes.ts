/**
 * Paths of the site maps and the sites view, apart from everything else so that the titles and
 * the sidebar load neither the screens nor the protocol's schemas.
 */
export const SITE_MAPS_ROUTE = '/site-maps';
export const SITES_ROUTE = '/site-maps/sites';
