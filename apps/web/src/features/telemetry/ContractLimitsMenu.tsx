import { SettingOutlined } from '@ant-design/icons';
import type { DeviceListEntry } from '@meterportal/protocol';
import { Button, Flex, Form, Input, Popover } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { useSaveDeviceDetailsMutation, type ContractLimits } from '../devices/api';
import { parseContractKw } from './contractLimits';

interface ContractLimitsMenuProps {
  device: DeviceListEntry;
  limits: ContractLimits | undefined;
}

/** Owner-only drop-down to set MRK and RK; saved only when both entries are valid. */
export function ContractLimitsMenu({ device, limits }: ContractLimitsMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [mrk, setMrk] = useState('');
  const [rk, setRk] = useState('');
  const save = useSaveDeviceDetailsMutation();
  const mrkValue = parseContractKw(mrk);
  const rkValue = parseContractKw(rk);
  const valid = mrkValue !== null && rkValue !== null;

  const onOpenChange = (next: boolean) => {
    if (next) {
      // A failed load shows MRK (and RK) as 0, as the seed asks.
      setMrk(String(limits?.MRK ?? 0));
      setRk(String(limits?.RK ?? 0));
    }
    setOpen(next);
  };
  const submit = () => {
    if (mrkValue === null || rkValue === null) return;
    save.mutate(
      { token: device.token, MRK: mrkValue, RK: rkValue },
      {
        onSuccess: () => {
          toast('success', t('common.settings_saved'));
          setOpen(false);
        },
      },
    );
  };

  const content = (
    <Form layout="vertical" onFinish={submit} style={{ width: 220 }}>
      {/* The seed keeps the validation text hidden: an invalid entry is only marked. */}
      <Form.Item
        label={t('chart.mrk_label')}
        required
        validateStatus={mrk !== '' && mrkValue === null ? 'error' : ''}
      >
        <Input name="MRK" inputMode="decimal" value={mrk} onChange={(e) => setMrk(e.target.value)} />
      </Form.Item>
      <Form.Item
        label={t('chart.rk_label')}
        required
        validateStatus={rk !== '' && rkValue === null ? 'error' : ''}
      >
        <Input name="RK" inputMode="decimal" value={rk} onChange={(e) => setRk(e.target.value)} />
      </Form.Item>
      <Flex justify="end" gap={8}>
        <Button onClick={() => setOpen(false)}>{t('common.cancel')}</Button>
        <Button type="primary" htmlType="submit" disabled={!valid} loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Flex>
    </Form>
  );

  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={onOpenChange}
      content={content}
      title={t('chart.contract_settings')}
      placement="bottomRight"
    >
      <Button size="small" icon={<SettingOutlined />}>
        {t('chart.contract_settings')}
      </Button>
    </Popover>
  );
}
