import { CloudDownloadOutlined, CloudUploadOutlined } from '@ant-design/icons';
import type { DeviceListEntry } from '@meterportal/protocol';
import { Button, Flex, Modal, Spin, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { liveStore } from '../../../api/live';
import { getModal } from '../../../api/notify';
import { useStore } from '../../../app/store';
import { useDeviceDatabaseMutation } from './api';
import { successDialog } from './dialogs';
import { canUseDeviceDatabase, isDeviceDatabaseBusy } from './meterRules';

interface DeviceDatabaseActionsProps {
  device: DeviceListEntry;
}

/**
 * Load from device and Send to device: each asks first, shows that the device is working, and
 * confirms with a dialog that closes itself. Enabled only for a device online over BT_MQTT.
 */
export function DeviceDatabaseActions({ device }: DeviceDatabaseActionsProps) {
  const { t } = useTranslation();
  const connected = useStore(liveStore, (s) => s.connected);
  const runtime = useStore(liveStore, (s) => s.devices[device.mac]);
  const download = useDeviceDatabaseMutation(device.token, 'download');
  const upload = useDeviceDatabaseMutation(device.token, 'upload');
  const enabled = connected && canUseDeviceDatabase(runtime);
  // Progress shows while a request waits for the device, and whenever the device says it is busy.
  const working = download.isPending || upload.isPending || isDeviceDatabaseBusy(runtime);

  const ask = (direction: 'download' | 'upload') => {
    const mutation = direction === 'download' ? download : upload;
    void getModal()?.confirm({
      title: t(direction === 'download' ? 'meters.download_confirm_title' : 'meters.upload_confirm_title'),
      content: t(direction === 'download' ? 'meters.download_confirm' : 'meters.upload_confirm'),
      okText: t('common.yes'),
      cancelText: t('common.no'),
      onOk: () => {
        mutation.mutate(undefined, {
          onSuccess: () =>
            successDialog(t(direction === 'download' ? 'meters.downloaded' : 'meters.uploaded')),
        });
      },
    });
  };

  return (
    <Flex gap={8} wrap>
      <Tooltip title={enabled ? undefined : t('meters.device_actions_hint')}>
        <Button
          icon={<CloudDownloadOutlined />}
          disabled={!enabled || working}
          onClick={() => ask('download')}
        >
          {t('meters.load_from_device')}
        </Button>
      </Tooltip>
      <Tooltip title={enabled ? undefined : t('meters.device_actions_hint')}>
        <Button icon={<CloudUploadOutlined />} disabled={!enabled || working} onClick={() => ask('upload')}>
          {t('meters.send_to_device')}
        </Button>
      </Tooltip>
      <Modal open={working} closable={false} footer={null} centered width={360} maskClosable={false}>
        <Flex vertical align="center" gap={16} style={{ padding: 16 }} role="status">
          <Spin size="large" />
          <span>{t('meters.device_working')}</span>
        </Flex>
      </Modal>
    </Flex>
  );
}
