import { ErrorCode, type DeviceListEntry } from '@meterportal/protocol';
import { Button, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, isApiError } from '../../api/http';
import { toast } from '../../api/notify';

type RelayState = 'OPEN' | 'CLOSED';

/**
 * Load relay of a disconnector (device type 2), for its owners: opens or closes it through the
 * device command and shows the state the device answered. The device also reports the switch
 * as a DISCONNECTOR event, which reaches the paired destinations.
 */
export function RelayControl({ device }: { device: DeviceListEntry }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<RelayState | null>(null);
  const [answered, setAnswered] = useState<RelayState | null>(null);

  const switchTo = async (state: RelayState) => {
    setBusy(state);
    try {
      const res = await call('relay', { token: device.token, state });
      setAnswered(res.data.state);
      toast('success', t(res.data.state === 'OPEN' ? 'hierarchy.relay_opened' : 'hierarchy.relay_closed'));
    } catch (e) {
      toast(
        'error',
        isApiError(e, ErrorCode.DeviceNotResponding)
          ? t('common.device_not_responding')
          : t('common.api_communication_error'),
      );
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex vertical gap={8} style={{ marginTop: 8 }}>
      <Typography.Text strong>{t('hierarchy.relay')}</Typography.Text>
      {answered && (
        <Typography.Text type="secondary">
          {t('hierarchy.relay_state', {
            state: t(answered === 'OPEN' ? 'hierarchy.relay_open' : 'hierarchy.relay_closed_state'),
          })}
        </Typography.Text>
      )}
      <Flex gap={8}>
        <Popconfirm
          title={t('hierarchy.relay_open_confirm')}
          onConfirm={() => void switchTo('OPEN')}
          okText={t('common.yes')}
          cancelText={t('common.no')}
        >
          <Button danger loading={busy === 'OPEN'} disabled={busy !== null}>
            {t('hierarchy.relay_open_action')}
          </Button>
        </Popconfirm>
        <Button loading={busy === 'CLOSED'} disabled={busy !== null} onClick={() => void switchTo('CLOSED')}>
          {t('hierarchy.relay_close_action')}
        </Button>
      </Flex>
    </Flex>
  );
}
