import { UploadOutlined } from '@ant-design/icons';
import { DEVICE_TYPES, type FirmwareVersionEntry } from '@meterportal/protocol';
import { Button, Card, Form, Input, Select, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { formatNumber } from '../../i18n/format';
import { useAddVersionMutation } from './api';
import { IMAGE_EXTENSIONS, IMAGE_MAX_MB, imageProblem } from './upgradeRules';

const VERSION_RE = /^[0-9A-Za-z._-]{1,40}$/;

/** Registered versions per device type, and the form a user manager registers one with. */
export function VersionsCard({ versions }: { versions: FirmwareVersionEntry[] }) {
  const { t } = useTranslation();
  const add = useAddVersionMutation();
  const [form] = Form.useForm<{ deviceType: number; version: string }>();
  const [image, setImage] = useState<File | null>(null);
  const typeName = (type: number) => t(`firmware.type_names.${String(type) as '1'}`);

  const submit = (v: { deviceType: number; version: string }) =>
    add.mutate(
      { ...v, image },
      {
        onSuccess: () => {
          toast('success', t('firmware.registered'));
          form.resetFields(['version']);
          setImage(null);
        },
      },
    );

  return (
    <Card title={t('firmware.versions')}>
      <Form
        form={form}
        layout="inline"
        onFinish={submit}
        className="firmware-add"
        style={{ rowGap: 8, marginBottom: 16 }}
      >
        <Form.Item
          name="deviceType"
          label={t('firmware.type')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select
            style={{ minWidth: 180 }}
            options={DEVICE_TYPES.map((d) => ({ value: d, label: typeName(d) }))}
          />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('firmware.version')}
          rules={[
            { required: true, message: t('common.required') },
            { pattern: VERSION_RE, message: t('firmware.version_rule') },
          ]}
        >
          <Input style={{ width: 140 }} />
        </Form.Item>
        <Form.Item
          label={t('firmware.image')}
          extra={t('firmware.image_hint', { max: formatNumber(IMAGE_MAX_MB) })}
        >
          <Upload
            accept={IMAGE_EXTENSIONS.join(',')}
            maxCount={1}
            fileList={image ? [{ uid: 'image', name: image.name, status: 'done' }] : []}
            onRemove={() => setImage(null)}
            beforeUpload={(file) => {
              const problem = imageProblem(file);
              if (problem) {
                toast('error', t(problem, { max: formatNumber(IMAGE_MAX_MB) }));
                return Upload.LIST_IGNORE;
              }
              setImage(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />}>{t('firmware.choose_image')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            {t('firmware.add_version')}
          </Button>
        </Form.Item>
      </Form>
      <Table<FirmwareVersionEntry>
        size="small"
        className="firmware-versions"
        rowKey="id"
        dataSource={versions}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        // Checksums stay on one line; a phone scrolls the table sideways.
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('firmware.no_registered') }}
        columns={[
          { title: t('firmware.type'), key: 'type', render: (_v, v) => typeName(v.deviceType) },
          { title: t('firmware.version'), dataIndex: 'version' },
          {
            title: t('firmware.image'),
            key: 'image',
            render: (_v, v) => v.imageName ?? t('firmware.no_image'),
          },
          {
            title: t('firmware.size'),
            key: 'size',
            render: (_v, v) => (v.sizeBytes === null ? '—' : `${formatNumber(v.sizeBytes, 0)} B`),
          },
          {
            title: t('firmware.checksum'),
            key: 'sha',
            render: (_v, v) =>
              v.sha256 ? (
                <Typography.Text code copyable>
                  {v.sha256}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Card>
  );
}
