import { DeviceType, serialFromMac, type DeviceListEntry, type HierarchyTag } from '@meterportal/protocol';
import { Button, Descriptions, Form, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceClockMark } from './DeviceClockMark';
import { RelayControl } from './RelayControl';

export interface DeviceDetailsValues {
  tags: string[];
  lat: number | null;
  lng: number | null;
}

interface DeviceDetailsDialogProps {
  device: DeviceListEntry;
  tag: HierarchyTag | undefined;
  onSave: (values: DeviceDetailsValues) => void;
  onDelete: () => void;
  onClose: () => void;
}

/**
 * Serial number (from the mac), tags and an editable location; Save, Delete, Close. A meter whose
 * clock is wrong is marked at the top.
 */
export function DeviceDetailsDialog({ device, tag, onSave, onDelete, onClose }: DeviceDetailsDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<DeviceDetailsValues>({
    tags: tag?.tags ?? [],
    lat: tag?.lat ?? null,
    lng: tag?.lng ?? null,
  });
  return (
    <Modal
      open
      title={`${t('hierarchy.details')}: ${device.title}`}
      onCancel={onClose}
      footer={[
        <Button key="delete" danger onClick={onDelete}>
          {t('hierarchy.remove_from_account')}
        </Button>,
        <Button key="close" onClick={onClose}>
          {t('common.close')}
        </Button>,
        <Button key="save" type="primary" onClick={() => onSave(values)}>
          {t('common.save')}
        </Button>,
      ]}
    >
      <DeviceClockMark device={device} />
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'serial', label: t('hierarchy.serial'), children: serialFromMac(device.mac) },
          { key: 'mac', label: t('hierarchy.mac'), children: device.mac },
          {
            key: 'type',
            label: t('hierarchy.type'),
            children: t(`hierarchy.device_types.${device.type}` as never),
          },
          {
            key: 'owner',
            label: t('hierarchy.owner'),
            children: device.owner ? t('common.yes') : t('common.no'),
          },
        ]}
      />
      <Form layout="vertical" style={{ marginTop: 16 }}>
        <Form.Item label={t('hierarchy.tags')}>
          <Select
            mode="tags"
            value={values.tags}
            placeholder={t('hierarchy.add_tag')}
            onChange={(tags: string[]) =>
              setValues((v) => ({
                ...v,
                tags: tags.map((x) => x.trim().slice(0, 24)).filter((x) => x !== ''),
              }))
            }
            open={false}
            suffixIcon={null}
          />
        </Form.Item>
        <Form.Item label={t('hierarchy.lat')}>
          <InputNumber
            style={{ width: '100%' }}
            min={-90}
            max={90}
            step={0.000001}
            value={values.lat}
            onChange={(lat) => setValues((v) => ({ ...v, lat: lat ?? null }))}
          />
        </Form.Item>
        <Form.Item label={t('hierarchy.lng')}>
          <InputNumber
            style={{ width: '100%' }}
            min={-180}
            max={180}
            step={0.000001}
            value={values.lng}
            onChange={(lng) => setValues((v) => ({ ...v, lng: lng ?? null }))}
          />
        </Form.Item>
      </Form>
      {device.type === DeviceType.Disconnector && device.owner && <RelayControl device={device} />}
    </Modal>
  );
}
