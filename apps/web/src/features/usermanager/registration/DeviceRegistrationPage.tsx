import type { DeviceConnectionSettings } from '@meterportal/protocol';
import { Flex } from 'antd';
import { useState } from 'react';
import { AddDeviceCard } from './AddDeviceCard';
import { RegisteredDevicesCard } from './RegisteredDevicesCard';
import { SettingsDialog } from './SettingsDialog';

/** Registering real meters: add one (settings shown once), list, new password, revoke. */
export function DeviceRegistrationPage() {
  const [shown, setShown] = useState<{ settings: DeviceConnectionSettings; title: string } | null>(null);
  const show = (settings: DeviceConnectionSettings, title: string) => setShown({ settings, title });
  return (
    <Flex vertical gap={16}>
      <AddDeviceCard onRegistered={show} />
      <RegisteredDevicesCard onRotated={show} />
      {shown && (
        <SettingsDialog settings={shown.settings} title={shown.title} onClose={() => setShown(null)} />
      )}
    </Flex>
  );
}
