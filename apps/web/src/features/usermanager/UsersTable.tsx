import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { ManagedUser } from '@meterportal/protocol';
import { Button, Card, Flex, Input, Table, Tag, Tooltip } from 'antd';
import Fuse from 'fuse.js';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getModal } from '../../api/notify';
import { useUnassignMutation, useUsersQuery } from './api';
import { AddDeviceModal, EditUserModal } from './UserModals';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SEARCH_THRESHOLD,
  canAddDevice,
  isOwnerLifeTime,
  sortByLogin,
} from './userRules';
import { formatLocal } from '../telemetry/zone';

type SortOrder = 'ascend' | 'descend';

/** Users with their devices as chips; sort, page size, fuzzy search, paging (seed 001 section 2). */
export function UsersTable() {
  const { t } = useTranslation();
  const users = useUsersQuery();
  const unassign = useUnassignMutation();
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<SortOrder>('descend');
  const [page, setPage] = useState({ current: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [modal, setModal] = useState<{ kind: 'device' | 'edit'; user: ManagedUser } | null>(null);

  const rows = useMemo(() => {
    const all = users.data ?? [];
    const found = search.trim()
      ? new Fuse(all, { keys: ['login'], threshold: SEARCH_THRESHOLD })
          .search(search.trim())
          .map((r) => r.item)
      : all;
    return sortByLogin(found, order);
  }, [users.data, search, order]);

  const confirmRemove = (user: ManagedUser, mac: string, title: string) => {
    void getModal()?.confirm({
      title: t('usermanager.remove_device'),
      content: t('usermanager.remove_device_confirm', { device: title, login: user.login }),
      okText: t('common.yes'),
      cancelText: t('common.no'),
      onOk: () => unassign.mutate({ login: user.login, device: mac }),
    });
  };

  const chips = (user: ManagedUser) =>
    user.assignments
      .filter((a) => user.devices.includes(a.device))
      .map((a) => {
        const validity = isOwnerLifeTime(a.lifeTime)
          ? t('usermanager.owner')
          : t('usermanager.valid_until', { date: formatLocal(a.lifeTime * 1000, 'L') });
        return (
          <Tooltip key={a.device} title={a.device}>
            <Tag
              color={isOwnerLifeTime(a.lifeTime) ? 'blue' : 'default'}
              closable
              closeIcon={<span aria-label={t('usermanager.remove_device')}>×</span>}
              onClose={(e) => {
                e.preventDefault();
                confirmRemove(user, a.device, a.title);
              }}
              style={{ marginBlock: 2 }}
            >
              {`${a.title} · ${validity}`}
            </Tag>
          </Tooltip>
        );
      });

  return (
    <Card
      title={t('usermanager.users')}
      extra={
        <Input.Search
          allowClear
          placeholder={t('usermanager.search')}
          aria-label={t('usermanager.search')}
          style={{ width: 240, maxWidth: '100%' }}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
      }
    >
      <Table<ManagedUser>
        size="small"
        rowKey="login"
        loading={users.isFetching}
        dataSource={rows}
        onChange={(pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          // A third click would clear the sort; the list always keeps one order.
          if (s?.columnKey === 'login') setOrder(s.order === 'ascend' ? 'ascend' : 'descend');
          setPage({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE });
        }}
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) => t('usermanager.total', { total }),
        }}
        scroll={{ x: true }}
        columns={[
          {
            title: t('usermanager.login'),
            key: 'login',
            dataIndex: 'login',
            sorter: true,
            sortOrder: order,
            sortDirections: ['descend', 'ascend', 'descend'],
            width: 160,
          },
          {
            title: t('usermanager.devices'),
            key: 'devices',
            render: (_v, user) => (
              <Flex wrap gap={2}>
                {chips(user)}
              </Flex>
            ),
          },
          {
            title: t('usermanager.actions'),
            key: 'actions',
            width: 96,
            // Pinned to the right edge, so that a narrow screen reaches it without scrolling.
            fixed: 'right',
            render: (_v, user) => (
              <Flex gap={4}>
                <Tooltip title={t('usermanager.add_device')}>
                  <Button
                    size="small"
                    icon={<PlusOutlined />}
                    aria-label={`${t('usermanager.add_device')} ${user.login}`}
                    disabled={!canAddDevice(user.devices.length)}
                    onClick={() => setModal({ kind: 'device', user })}
                  />
                </Tooltip>
                <Tooltip title={t('usermanager.edit_user')}>
                  <Button
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={`${t('usermanager.edit_user')} ${user.login}`}
                    onClick={() => setModal({ kind: 'edit', user })}
                  />
                </Tooltip>
              </Flex>
            ),
          },
        ]}
      />
      {modal?.kind === 'device' && <AddDeviceModal user={modal.user} onClose={() => setModal(null)} />}
      {modal?.kind === 'edit' && <EditUserModal user={modal.user} onClose={() => setModal(null)} />}
    </Card>
  );
}
