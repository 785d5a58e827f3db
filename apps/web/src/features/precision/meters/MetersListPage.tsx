import { DeleteOutlined, LineChartOutlined, PlusOutlined } from '@ant-design/icons';
import type { MeterRow } from '@meterportal/protocol';
import { Button, Card, Empty, Flex, Input, Popconfirm, Table, Tooltip, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { snackbar } from '../../../api/notify';
import { useSelectedDevice } from '../../devices/selection';
import { useDeleteMeterMutation, useEditMeterMutation, useMetersQuery } from './api';
import { DeviceDatabaseActions } from './DeviceDatabaseActions';
import { EditableCell } from './EditableCell';
import {
  DEFAULT_PAGE_SIZE,
  METER_FIELDS,
  PAGE_SIZES,
  editedMeter,
  isEnumField,
  searchMeters,
  sortByTime,
  type MeterField,
} from './meterRules';
import { METER_ADD_ROUTE, meterTestsUrl } from './routes';
import { formatLocal } from '../../telemetry/zone';

/** Columns in the order a tester fills them in; the rest of the fields follow. */
const FIRST_COLUMNS: MeterField[] = ['SNUM', 'TYPE', 'PRODUCER', 'CUSTOMER', 'LOCATION'];
const COLUMNS: MeterField[] = [...FIRST_COLUMNS, ...METER_FIELDS.filter((f) => !FIRST_COLUMNS.includes(f))];

/** The meters of the selected device: search, paging, in-place edit, delete, device database. */
export function MetersListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const device = useSelectedDevice();
  const meters = useMetersQuery(device?.token);
  const edit = useEditMeterMutation(device?.token);
  const remove = useDeleteMeterMutation(device?.token);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ current: 1, pageSize: DEFAULT_PAGE_SIZE });

  const rows = useMemo(() => sortByTime(searchMeters(meters.data ?? [], search)), [meters.data, search]);

  const saveCell = async (row: MeterRow, field: MeterField, value: string | number): Promise<boolean> => {
    const next = editedMeter(row, field, value);
    if (!next.ok) {
      snackbar('error', t('meters.invalid_value'));
      return false;
    }
    try {
      await edit.mutateAsync({ ID_meter: row.ID_meter, meter: next.meter });
      return true;
    } catch {
      return false;
    }
  };

  if (!device) return <Empty description={t('meters.no_device')} />;

  const columns: TableColumnsType<MeterRow> = [
    {
      title: t('meters.fields.MTIME'),
      key: 'MTIME',
      dataIndex: 'MTIME',
      width: 170,
      fixed: 'left',
      render: (v: number) => formatLocal(v * 1000, 'L LTS'),
    },
    ...COLUMNS.map((field) => ({
      title: t(`meters.fields.${field}`),
      key: field,
      width: isEnumField(field) ? 130 : 140,
      render: (_v: unknown, row: MeterRow) => (
        <EditableCell row={row} field={field} onSave={(value) => saveCell(row, field, value)} />
      ),
    })),
    { title: t('meters.fields.LPCOUNT'), key: 'LPCOUNT', dataIndex: 'LPCOUNT', width: 110, align: 'right' },
    {
      title: t('meters.actions'),
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_v, row) => (
        <Flex gap={4}>
          <Tooltip title={t('meters.load_points')}>
            <Button
              size="small"
              icon={<LineChartOutlined />}
              aria-label={`${t('meters.load_points')} ${row.SNUM}`}
              onClick={() => void navigate(meterTestsUrl(row.ID_meter))}
            />
          </Tooltip>
          <Popconfirm
            title={t('meters.are_you_sure')}
            okText={t('common.yes')}
            cancelText={t('common.no')}
            onConfirm={() =>
              remove.mutate(row.ID_meter, { onSuccess: () => snackbar('success', t('meters.deleted')) })
            }
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={`${t('meters.delete_meter')} ${row.SNUM}`}
            />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <Card
      title={t('meters.title')}
      extra={
        <Input.Search
          allowClear
          placeholder={t('meters.search')}
          aria-label={t('meters.search')}
          style={{ width: 240 }}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
      }
    >
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(METER_ADD_ROUTE)}>
          {t('meters.add_meter')}
        </Button>
        <DeviceDatabaseActions device={device} />
      </Flex>
      <Table<MeterRow>
        className="meters-table"
        size="small"
        rowKey="ID_meter"
        loading={meters.isFetching || remove.isPending}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('meters.no_meters')} /> }}
        onChange={(pagination) =>
          setPage({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE })
        }
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) => t('meters.total', { total }),
        }}
      />
    </Card>
  );
}
