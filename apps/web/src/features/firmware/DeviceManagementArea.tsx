import { Navigate, Route, Routes } from 'react-router';
import { FirmwarePage } from './FirmwarePage';
import { RelayPage } from '../relay/RelayPage';
import { SettingsPage } from '../settings/SettingsPage';
import { FIRMWARE_ROUTE } from './routes';

/** Routes of device management: relay control and firmware upgrade (owners; the server checks again). */
export function DeviceManagementArea() {
  return (
    <Routes>
      <Route path="relay" element={<RelayPage />} />
      <Route path="firmware" element={<FirmwarePage />} />
      <Route path="settings" element={<SettingsPage />} />
      <Route path="*" element={<Navigate to={FIRMWARE_ROUTE} replace />} />
    </Routes>
  );
}
