import { Navigate, Route, Routes } from 'react-router';
import { GraphToolbar } from '../telemetry/GraphToolbar';
import { CostPage } from './CostPage';
import { PeaksPage } from './PeaksPage';
import { COST_ROUTE } from './routes';
import { TariffPage } from './TariffPage';

/** Routes of the cost area: cost of energy, capacity peaks and the tariff of the selected device. */
export function CostsArea() {
  return (
    <Routes>
      <Route index element={<Navigate to={COST_ROUTE} replace />} />
      <Route path="cost" element={<CostPage />} />
      <Route path="peaks" element={<PeaksPage />} />
      <Route
        path="tariff"
        element={
          <>
            <GraphToolbar showSource={false} />
            <TariffPage />
          </>
        }
      />
      <Route path="*" element={<Navigate to={COST_ROUTE} replace />} />
    </Routes>
  );
}
