import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { NotifyDestination } from '@meterportal/protocol';
import { Button, Card, Empty, Form, Input, Modal, Popconfirm, Select, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { snackbar } from '../../api/notify';
import { useSelectedDevice } from '../devices/selection';
import { useAddPairMutation, useDeletePairMutation, usePairsQuery } from './api';
import {
  NEW_EMAIL_DESTINATION,
  allDestinations,
  destinationKey,
  freeDestinations,
  sourcesFor,
  type Destination,
  type Pair,
} from './notificationRules';

/** Name of a destination: 'Cloud', 'Webex (space: title)' or 'E-mail (address)'. */
function useDestinationName() {
  const { t } = useTranslation();
  return (d: Destination) => {
    switch (d.ID_dest) {
      case NotifyDestination.Webex:
        return t('tools.webex', { title: d.title ?? d.ID });
      case NotifyDestination.Email:
        return d.ID
          ? t('notification_history.email', { address: d.ID })
          : t('notification_history.email_new');
      case NotifyDestination.Cloud:
        return t('tools.cloud');
    }
  };
}

function useSourceName() {
  const { t } = useTranslation();
  return (id: number) => t(`tools.sources.${String(id) as '1' | '2' | '3' | '4'}`);
}

/** Notification pairs of the selected device: list, add, delete. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const { pairs, spaces, emailAvailable, isFetching } = usePairsQuery(device?.token);
  const remove = useDeletePairMutation(device?.token);
  const [adding, setAdding] = useState(false);
  const sourceName = useSourceName();
  const destinationName = useDestinationName();

  if (!device) return <Empty description={t('tools.no_device')} />;
  return (
    <Card
      title={t('menu.paired_notifications')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {t('tools.add')}
        </Button>
      }
    >
      <Table<Pair>
        size="small"
        rowKey="ID"
        loading={isFetching || remove.isPending}
        dataSource={pairs}
        pagination={false}
        locale={{ emptyText: <Empty description={t('tools.no_pairs')} /> }}
        columns={[
          { title: t('tools.number'), key: 'n', width: 90, render: (_v, _r, i) => i + 1 },
          { title: t('tools.source'), key: 'source', render: (_v, r) => sourceName(r.notifyType) },
          {
            title: t('tools.destination'),
            key: 'destination',
            render: (_v, r) => destinationName(r.destination),
          },
          {
            title: t('common.delete'),
            key: 'delete',
            width: 90,
            align: 'center',
            render: (_v, r) => (
              <Popconfirm
                title={t('tools.are_you_sure')}
                okText={t('common.yes')}
                cancelText={t('common.no')}
                onConfirm={() => remove.mutate(r.ID)}
              >
                <Button danger type="text" icon={<DeleteOutlined />} aria-label={t('tools.delete_pair')} />
              </Popconfirm>
            ),
          },
        ]}
      />
      {adding && (
        <AddPairModal
          deviceType={device.type}
          deviceToken={device.token}
          pairs={pairs}
          destinations={allDestinations(spaces, emailAvailable)}
          onClose={() => setAdding(false)}
        />
      )}
    </Card>
  );
}

interface AddPairModalProps {
  deviceType: number;
  deviceToken: string;
  pairs: readonly Pair[];
  destinations: readonly Destination[];
  onClose: () => void;
}

interface PairForm {
  source?: number;
  destination?: string;
  /** The address, when the destination is a new e-mail address. */
  email?: string;
}

/** Source first; then only the destinations this source is not yet paired with. */
function AddPairModal({ deviceType, deviceToken, pairs, destinations, onClose }: AddPairModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PairForm>();
  const source = Form.useWatch('source', form);
  const add = useAddPairMutation(deviceToken);
  const sourceName = useSourceName();
  const destinationName = useDestinationName();
  const free = source === undefined ? [] : freeDestinations(source, destinations, pairs);
  const chosen = Form.useWatch('destination', form);
  const emailChosen = chosen === destinationKey(NEW_EMAIL_DESTINATION);

  const onFinish = async (v: PairForm) => {
    const picked = free.find((d) => destinationKey(d) === v.destination);
    if (v.source === undefined || !picked) return;
    const destination = emailChosen ? { ...picked, ID: (v.email ?? '').trim() } : picked;
    await add.mutateAsync({ source: v.source, destination });
    snackbar('success', t('tools.pair_saved'));
    onClose();
  };

  return (
    <Modal
      open
      title={t('tools.add_pair_title')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={add.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<PairForm>
        form={form}
        layout="vertical"
        onFinish={(v) => {
          onFinish(v).catch(() => undefined);
        }}
        onValuesChange={(changed: PairForm) => {
          if ('source' in changed) form.setFieldValue('destination', undefined);
        }}
      >
        <Form.Item
          name="source"
          label={t('tools.source')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select<number>
            aria-label={t('tools.source')}
            options={sourcesFor(deviceType).map((id) => ({ value: id, label: sourceName(id) }))}
          />
        </Form.Item>
        <Form.Item
          name="destination"
          label={t('tools.destination')}
          rules={[{ required: true, message: t('common.required') }]}
          {...(source !== undefined && free.length === 0 ? { help: t('tools.no_free_destination') } : {})}
        >
          <Select<string>
            aria-label={t('tools.destination')}
            disabled={source === undefined}
            options={free.map((d) => ({ value: destinationKey(d), label: destinationName(d) }))}
          />
        </Form.Item>
        {emailChosen && (
          <Form.Item
            name="email"
            label={t('notification_history.email_address')}
            extra={t('notification_history.email_language')}
            rules={[
              { required: true, message: t('common.required') },
              { type: 'email', message: t('notification_history.email_invalid') },
            ]}
          >
            <Input type="email" autoComplete="email" aria-label={t('notification_history.email_address')} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
