import { Alert, Button, Card, Col, Empty, Flex, Row, Select, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/http';
import { toast } from '../../api/notify';
import { useDeviceList } from '../auth/session';
import { useSelectedDevice } from '../devices/selection';
import { useSaveSettingsMutation, useSettingsQuery } from './api';
import { settingsDevices } from './routes';
import { LoraSection, MeasurementSection, WifiSection, type SaveSection } from './SettingsSections';
import { ErrorCode, type SettingsWriteRequest } from '@meterportal/protocol';

/** A section's column: the whole row on narrow screens, half from antd's lg, a third from xxl. */
const SECTION_COLUMN = { xs: 24, lg: 12, xxl: 8 } as const;

/**
 * LoRa, WiFi and measurement settings of an owned device: read from the device when the screen
 * opens, each section saved on its own and reported saved only once the device confirmed.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const devices = settingsDevices(useDeviceList());
  const selected = useSelectedDevice();
  const [mac, setMac] = useState<string | undefined>(
    devices.find((d) => d.mac === selected?.mac)?.mac ?? devices[0]?.mac,
  );
  const device = devices.find((d) => d.mac === mac) ?? devices[0];
  const settings = useSettingsQuery(device?.token);
  const save = useSaveSettingsMutation();

  if (!device) return <Empty description={t('settings.no_device')} />;
  const onSave: SaveSection = (body) =>
    save.mutateAsync(body).then((data) => {
      toast('success', t('common.settings_saved'));
      return data;
    });
  /** What every section is given: the device, whether its own save is running, and the one save. */
  const sectionProps = (section: SettingsWriteRequest['section']) => ({
    token: device.token,
    saving: save.isPending && save.variables.section === section,
    onSave,
  });
  const lora = 'lora' in device && device.lora === true ? settings.data?.lora : null;
  const phases = ('phase_use' in device ? device.phase_use : undefined) ?? 3;
  const silent = isApiError(settings.error, ErrorCode.DeviceNotResponding);

  return (
    <Flex vertical gap={16} className="settings-page">
      <Card title={t('settings.menu')}>
        <Flex gap={8} wrap align="center">
          <Select
            aria-label={t('settings.device')}
            value={device.mac}
            onChange={setMac}
            options={devices.map((d) => ({ value: d.mac, label: d.title }))}
            style={{ minWidth: 220, maxWidth: '100%' }}
          />
          <Button onClick={() => void settings.refetch()} loading={settings.isFetching}>
            {t('settings.read_again')}
          </Button>
        </Flex>
      </Card>
      {settings.isError && (
        <Alert
          type="error"
          showIcon
          className="settings-error"
          message={silent ? t('common.device_not_responding') : t('common.api_communication_error')}
        />
      )}
      {settings.isPending && settings.fetchStatus !== 'idle' && (
        <Flex justify="center">
          <Spin aria-label={t('settings.reading')} />
        </Flex>
      )}
      {settings.data && (
        <Row gutter={[16, 16]}>
          {lora && (
            <Col {...SECTION_COLUMN}>
              <LoraSection {...sectionProps('lora')} value={lora} />
            </Col>
          )}
          <Col {...SECTION_COLUMN}>
            <WifiSection {...sectionProps('wifi')} value={settings.data.wifi} />
          </Col>
          <Col {...SECTION_COLUMN}>
            <MeasurementSection
              {...sectionProps('measurement')}
              value={settings.data.measurement}
              phases={phases}
            />
          </Col>
        </Row>
      )}
    </Flex>
  );
}
