import { Navigate, Route, Routes } from 'react-router';
import { SiteMapsPage } from './SiteMapsPage';
import { SitesPage } from './SitesPage';
import { SITE_MAPS_ROUTE } from './siteRules';

/** Routes of the site maps: the user's location maps and the sites view. */
export function SiteMapsArea() {
  return (
    <Routes>
      <Route index element={<SiteMapsPage />} />
      <Route path="sites" element={<SitesPage />} />
      <Route path="*" element={<Navigate to={SITE_MAPS_ROUTE} replace />} />
    </Routes>
  );
}
