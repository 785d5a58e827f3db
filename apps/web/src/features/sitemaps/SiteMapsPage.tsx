import { SITE_MAP_NAME_MAX, type SitePin } from '@meterportal/protocol';
import { Button, Card, Empty, Flex, Input, List, Modal, Popconfirm, Select, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../api/notify';
import { defaultRouteForType } from '../../app/routeMemory';
import { useDeviceList } from '../auth/session';
import { selectDevice } from '../devices/selection';
import {
  siteMapImageUrl,
  useDeleteSiteMapMutation,
  useRemovePinMutation,
  useRenameSiteMapMutation,
  useSavePinMutation,
  useSiteMapsQuery,
  useUploadSiteMapMutation,
} from './api';
import { PIN_COLORS, PlanBoard } from './PlanBoard';
import { planFileProblem } from './siteRules';
import './siteMaps.css';

const NAME_OK = /^[^<>]*$/;
const validName = (s: string) =>
  s.trim().length > 0 && s.trim().length <= SITE_MAP_NAME_MAX && NAME_OK.test(s);

/** Upload of a new plan: its name and a PNG or JPEG of at most 1 MB, checked before it is sent. */
function UploadCard({ onUploaded }: { onUploaded: (id: number) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const uploading = useUploadSiteMapMutation();

  const choose = async (f: File | undefined) => {
    setFile(null);
    if (!f) return;
    const head = new Uint8Array(await f.slice(0, 16).arrayBuffer());
    const problem = planFileProblem(f.size, head);
    if (problem) {
      toast('error', t(problem === 'too_large' ? 'sitemaps.file_too_large' : 'sitemaps.file_format'));
      if (input.current) input.current.value = '';
      return;
    }
    setFile(f);
  };
  const send = () => {
    if (!file || !validName(name)) return;
    uploading.mutate(
      { name: name.trim(), file },
      {
        onSuccess: (id) => {
          toast('success', t('sitemaps.uploaded'));
          setName('');
          setFile(null);
          if (input.current) input.current.value = '';
          onUploaded(id);
        },
      },
    );
  };
  const nameBad = name !== '' && !validName(name);
  return (
    <Card size="small" title={t('sitemaps.upload')} data-testid="site-upload">
      <Flex vertical gap={8}>
        <Input
          aria-label={t('sitemaps.map_name')}
          placeholder={t('sitemaps.map_name')}
          value={name}
          status={nameBad ? 'error' : undefined}
          onChange={(e) => setName(e.target.value)}
          style={{ maxWidth: 360 }}
        />
        {nameBad && (
          <Typography.Text type="danger">
            {t('sitemaps.name_rule', { max: SITE_MAP_NAME_MAX })}
          </Typography.Text>
        )}
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg"
          hidden
          data-testid="site-file"
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <Flex gap={8} wrap align="center">
          <Button onClick={() => input.current?.click()}>{t('sitemaps.choose_file')}</Button>
          <Typography.Text type="secondary">{file ? file.name : t('sitemaps.upload_hint')}</Typography.Text>
        </Flex>
        <Button
          type="primary"
          disabled={!file || !validName(name)}
          loading={uploading.isPending}
          onClick={send}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('sitemaps.upload')}
        </Button>
      </Flex>
    </Card>
  );
}

/**
 * Location maps: a user's floor or site plans with their assigned devices pinned on them by drag
 * and drop, each pin showing the device's live state and opening the device when tapped.
 */
export function SiteMapsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useDeviceList();
  const maps = useSiteMapsQuery();
  const [chosen, setChosen] = useState<number | null>(null);
  const [group, setGroup] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const rename = useRenameSiteMapMutation();
  const remove = useDeleteSiteMapMutation();
  const savePin = useSavePinMutation();
  const removePin = useRemovePinMutation();

  const list = maps.data ?? [];
  const map = list.find((m) => m.id === chosen) ?? list[0];
  const tokenOf = (mac: string) => devices.find((d) => d.mac === mac)?.token;
  const open = (pin: SitePin) => {
    selectDevice(pin.mac);
    void navigate(defaultRouteForType(pin.type));
  };
  const place = (mac: string, x: number, y: number) => {
    const token = tokenOf(mac);
    if (!map || !token) return;
    const keepGroup = map.pins.find((p) => p.mac === mac)?.group;
    savePin.mutate({ id: map.id, token, group: keepGroup ?? group.trim(), x, y });
  };
  const placed = new Set(map?.pins.map((p) => p.mac));
  const grouped = [...(map?.pins ?? [])].sort(
    (a, b) => a.group.localeCompare(b.group) || a.title.localeCompare(b.title),
  );

  return (
    <Flex vertical gap={16}>
      <Card title={t('sitemaps.title')} loading={maps.isPending}>
        <Flex vertical gap={16}>
          {map ? (
            <Flex gap={8} wrap align="center">
              <Typography.Text strong>{t('sitemaps.map')}:</Typography.Text>
              <Select
                aria-label={t('sitemaps.map')}
                value={map.id}
                onChange={setChosen}
                options={list.map((m) => ({ value: m.id, label: m.name }))}
                style={{ minWidth: 180, maxWidth: '100%' }}
                data-testid="site-map-select"
              />
              <Button onClick={() => setRenaming(map.name)}>{t('sitemaps.rename')}</Button>
              <Popconfirm
                title={t('sitemaps.delete_confirm', { name: map.name })}
                okText={t('common.yes')}
                cancelText={t('common.no')}
                onConfirm={() =>
                  remove.mutate(map.id, {
                    onSuccess: () => {
                      toast('success', t('sitemaps.deleted'));
                      setChosen(null);
                    },
                  })
                }
              >
                <Button danger>{t('sitemaps.delete')}</Button>
              </Popconfirm>
            </Flex>
          ) : (
            !maps.isPending && <Empty description={t('sitemaps.no_maps')} />
          )}
          {map && (
            <PlanBoard
              key={map.id}
              imageUrl={siteMapImageUrl(map.id)}
              mapName={map.name}
              pins={map.pins}
              unplaced={devices.filter((d) => !placed.has(d.mac))}
              group={group}
              onGroupChange={setGroup}
              onPlace={place}
              onOpen={open}
            />
          )}
        </Flex>
      </Card>
      {map && (
        <Card title={t('sitemaps.pins')} size="small">
          <Flex gap={12} wrap style={{ marginBottom: 8 }}>
            {(['ONLINE', 'OFFLINE', 'ALARM'] as const).map((s) => (
              <span key={s}>
                <span className="site-legend-dot" style={{ background: PIN_COLORS[s] }} />
                {t(`sitemaps.state.${s}`)}
              </span>
            ))}
          </Flex>
          <List
            data-testid="site-pins"
            locale={{ emptyText: t('sitemaps.no_pins') }}
            dataSource={grouped}
            renderItem={(pin) => (
              <List.Item
                actions={[
                  <Button key="open" size="small" onClick={() => open(pin)}>
                    {t('sitemaps.open')}
                  </Button>,
                  <Button
                    key="remove"
                    size="small"
                    danger
                    onClick={() => {
                      const token = tokenOf(pin.mac);
                      if (token) removePin.mutate({ id: map.id, token });
                    }}
                  >
                    {t('sitemaps.remove_pin')}
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={pin.title}
                  description={
                    <Flex gap={4} wrap>
                      <Tag
                        color={pin.state === 'ONLINE' ? 'green' : pin.state === 'ALARM' ? 'red' : 'default'}
                      >
                        {t(`sitemaps.state.${pin.state}`)}
                      </Tag>
                      <Tag>{pin.group || t('sitemaps.no_group')}</Tag>
                    </Flex>
                  }
                />
              </List.Item>
            )}
          />
        </Card>
      )}
      <UploadCard onUploaded={setChosen} />
      {map && renaming !== null && (
        <Modal
          open
          title={t('sitemaps.rename')}
          okText={t('common.save')}
          cancelText={t('common.cancel')}
          okButtonProps={{ disabled: !validName(renaming) }}
          onCancel={() => setRenaming(null)}
          onOk={() =>
            rename.mutate({ id: map.id, name: renaming.trim() }, { onSuccess: () => setRenaming(null) })
          }
        >
          <Input
            aria-label={t('sitemaps.map_name')}
            value={renaming}
            maxLength={SITE_MAP_NAME_MAX}
            onChange={(e) => setRenaming(e.target.value)}
          />
        </Modal>
      )}
    </Flex>
  );
}
