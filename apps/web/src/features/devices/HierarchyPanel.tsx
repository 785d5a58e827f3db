import {
  DeleteOutlined,
  EditOutlined,
  EllipsisOutlined,
  FolderAddOutlined,
  InfoCircleOutlined,
  MinusSquareOutlined,
  PlusSquareOutlined,
} from '@ant-design/icons';
import {
  HIERARCHY_NAME_MAX,
  duplicateFolderName,
  type DeviceListEntry,
  type HierarchyMenu,
  type HierarchyNode,
} from '@meterportal/protocol';
import {
  Button,
  Dropdown,
  Empty,
  Flex,
  Input,
  Spin,
  Tag,
  Tooltip,
  Tree,
  type MenuProps,
  type TreeDataNode,
  type TreeProps,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { getModal, snackbar } from '../../api/notify';
import { useStore } from '../../app/store';
import { useDeviceList } from '../auth/session';
import { useHierarchyQuery, useRemoveDeviceMutation, useSaveHierarchyMutation } from './api';
import { DeviceDetailsDialog, type DeviceDetailsValues } from './DeviceDetailsDialog';
import { resolveSelected, selectDevice, selectedMacStore } from './selection';
import {
  addFolder,
  canDeleteFolder,
  dropPlacement,
  findNode,
  folderKeys,
  moveNode,
  nodeKey,
  normalizeName,
  removeNode,
  renameNode,
  setExpanded,
  tagLabel,
  truncate,
  updateTag,
} from './tree';

interface HierarchyPanelProps {
  /** Called after a device leaf was chosen (a drawer may close). */
  onDeviceSelected?: (device: DeviceListEntry) => void;
}

interface PanelNode extends TreeDataNode {
  node: HierarchyNode;
  children?: PanelNode[];
}

/**
 * How long a click on a device in a drawer waits for a second click before it selects the device
 * and closes the drawer: a double click renames the device instead.
 */
const DOUBLE_CLICK_MS = 300;

interface RenameInputProps {
  value: string;
  label: string;
  onChange: (value: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The in-place name editor. It takes the focus after the tree has finished its update: focused
 * while the tree is still attaching its list (autoFocus), the tree's focus handler would scroll
 * a list that is not attached yet. Its focus stays its own, so the tree does not start keyboard
 * navigation under the typing.
 */
function RenameInput({ value, label, onChange, onConfirm, onCancel }: RenameInputProps) {
  const ref = useRef<InputRef>(null);
  useEffect(() => {
    ref.current?.focus({ cursor: 'all' });
  }, []);
  return (
    <Input
      ref={ref}
      size="small"
      aria-label={label}
      maxLength={HIERARCHY_NAME_MAX}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onPressEnter={onConfirm}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
        e.stopPropagation();
      }}
      onFocus={(e) => e.stopPropagation()}
      onBlur={(e) => {
        e.stopPropagation();
        onCancel();
      }}
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
    />
  );
}

function toTreeData(nodes: HierarchyNode[]): PanelNode[] {
  return nodes.map((n) => ({
    key: nodeKey(n),
    title: n.title,
    isLeaf: !!n.isLeaf,
    node: n,
    ...(n.isLeaf ? {} : { children: toTreeData(n.children ?? []) }),
  }));
}

/** The device hierarchy: folders and devices, every change saved at once. */
export function HierarchyPanel({ onDeviceSelected }: HierarchyPanelProps) {
  const { t } = useTranslation();
  const devices = useDeviceList();
  const selectedMac = useStore(selectedMacStore);
  const query = useHierarchyQuery();
  const save = useSaveHierarchyMutation();
  const removeDevice = useRemoveDeviceMutation();
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [detailsMac, setDetailsMac] = useState<string | null>(null);
  const pendingSelect = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPendingSelect = () => {
    if (pendingSelect.current) clearTimeout(pendingSelect.current);
    pendingSelect.current = null;
  };
  useEffect(() => cancelPendingSelect, []);
  const menu = query.data;
  const treeData = useMemo(() => toTreeData(menu?.nodes ?? []), [menu]);
  const expandedKeys = useMemo(
    () => (menu ? folderKeys(menu.nodes).filter((k) => findNode(menu.nodes, k)?.isExpanded) : []),
    [menu],
  );
  const byMac = useMemo(() => new Map(devices.map((d) => [d.mac, d])), [devices]);
  const selected = resolveSelected(devices, selectedMac);

  if (devices.length === 0) return <Empty description={t('shell.any_assigned_devices')} />;
  if (!menu) return <Spin />;

  /** Saves the tree; a change that would give two folders of one level one name is refused. */
  const commit = (next: HierarchyMenu): boolean => {
    const twice = duplicateFolderName(next.nodes);
    if (twice !== null) {
      snackbar('warning', t('hierarchy.name_taken', { name: twice }));
      return false;
    }
    save.mutate(next);
    return true;
  };
  const commitNodes = (nodes: HierarchyNode[]) => commit({ ...menu, nodes });

  const startEdit = (key: string) => {
    const n = findNode(menu.nodes, key);
    if (!n) return;
    setEditing(key);
    setDraft(n.title);
  };
  const confirmEdit = () => {
    if (!editing) return;
    const name = normalizeName(draft);
    if (name === null) {
      snackbar('warning', t('hierarchy.name_max', { max: HIERARCHY_NAME_MAX }));
      return;
    }
    const node = findNode(menu.nodes, editing);
    if (!node || node.title === name) {
      setEditing(null);
      return;
    }
    // A device's tag record carries its title too, so both stay in step.
    const tags =
      node.isLeaf && node.data.mac ? updateTag(menu.tags, node.data.mac, { title: name }) : menu.tags;
    // A refused name keeps the editor open, so that it can be corrected.
    if (commit({ nodes: renameNode(menu.nodes, editing, name), tags })) setEditing(null);
  };

  const deleteFolder = (key: string) => {
    const n = findNode(menu.nodes, key);
    if (!n) return;
    if (!canDeleteFolder(n)) {
      snackbar('warning', t('hierarchy.object_not_empty'));
      return;
    }
    commitNodes(removeNode(menu.nodes, key).nodes);
  };

  const confirmRemove = (device: DeviceListEntry) => {
    void getModal()?.confirm({
      title: t('hierarchy.confirm_remove_title'),
      content: t('hierarchy.confirm_remove_text', { title: device.title }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => {
        setDetailsMac(null);
        removeDevice.mutate(device);
      },
    });
  };

  const newFolder = (parentKey?: string) => {
    const { nodes, key, title } = addFolder(menu.nodes, t('hierarchy.new_folder'), parentKey);
    if (!commitNodes(nodes)) return;
    setEditing(key);
    setDraft(title);
  };

  const actions = (n: HierarchyNode): MenuProps['items'] =>
    n.isLeaf
      ? [
          { key: 'details', icon: <InfoCircleOutlined />, label: t('hierarchy.details') },
          { key: 'rename', icon: <EditOutlined />, label: t('hierarchy.rename') },
          { key: 'remove', icon: <DeleteOutlined />, label: t('hierarchy.remove_device'), danger: true },
        ]
      : [
          { key: 'add', icon: <FolderAddOutlined />, label: t('hierarchy.add_folder') },
          { key: 'rename', icon: <EditOutlined />, label: t('hierarchy.rename') },
          { key: 'delete', icon: <DeleteOutlined />, label: t('hierarchy.delete_folder'), danger: true },
        ];

  const onAction = (n: HierarchyNode, action: string) => {
    const key = nodeKey(n);
    const device = n.data.mac ? byMac.get(n.data.mac) : undefined;
    if (action === 'details' && n.data.mac) setDetailsMac(n.data.mac);
    else if (action === 'rename') startEdit(key);
    else if (action === 'remove' && device) confirmRemove(device);
    else if (action === 'add') newFolder(key);
    else if (action === 'delete') deleteFolder(key);
  };

  const renderTitle = (data: PanelNode) => {
    const n = data.node;
    const key = nodeKey(n);
    if (editing === key) {
      return (
        <RenameInput
          value={draft}
          label={t('hierarchy.rename')}
          onChange={setDraft}
          onConfirm={confirmEdit}
          onCancel={() => setEditing(null)}
        />
      );
    }
    const tag = n.data.mac ? tagLabel(menu.tags.find((x) => x.mac === n.data.mac)) : undefined;
    return (
      <span className="hierarchy-node" data-testid={`node-${key}`}>
        <span className="hierarchy-node__title" title={n.title}>
          {truncate(n.title, HIERARCHY_NAME_MAX)}
        </span>
        {tag && <Tag style={{ marginInlineEnd: 0 }}>{tag}</Tag>}
        <Dropdown
          trigger={['click']}
          menu={{
            items: actions(n),
            onClick: ({ key: a, domEvent }) => {
              domEvent.stopPropagation();
              onAction(n, a);
            },
          }}
        >
          <Button
            className="hierarchy-node__button"
            size="small"
            type="text"
            aria-label={t('hierarchy.actions')}
            icon={<EllipsisOutlined />}
            onClick={(e) => e.stopPropagation()}
          />
        </Dropdown>
      </span>
    );
  };

  const onDrop: TreeProps<PanelNode>['onDrop'] = (info) => {
    const placement = dropPlacement(info.dropToGap, info.dropPosition, info.node.pos);
    const next = moveNode(menu.nodes, String(info.dragNode.key), String(info.node.key), placement);
    if (next !== menu.nodes) commitNodes(next);
  };

  const detailsDevice = detailsMac ? byMac.get(detailsMac) : undefined;
  const onSaveDetails = (mac: string, v: DeviceDetailsValues) => {
    commit({ ...menu, tags: updateTag(menu.tags, mac, v) });
    setDetailsMac(null);
  };

  return (
    <Flex vertical gap={8}>
      <Flex gap={4} wrap>
        <Tooltip title={t('hierarchy.add_folder')}>
          <Button
            size="small"
            icon={<FolderAddOutlined />}
            onClick={() => newFolder()}
            aria-label={t('hierarchy.add_folder')}
          />
        </Tooltip>
        <Tooltip title={t('hierarchy.expand_all')}>
          <Button
            size="small"
            icon={<PlusSquareOutlined />}
            aria-label={t('hierarchy.expand_all')}
            onClick={() => commitNodes(setExpanded(menu.nodes, new Set(folderKeys(menu.nodes))))}
          />
        </Tooltip>
        <Tooltip title={t('hierarchy.collapse_all')}>
          <Button
            size="small"
            icon={<MinusSquareOutlined />}
            aria-label={t('hierarchy.collapse_all')}
            onClick={() => commitNodes(setExpanded(menu.nodes, new Set()))}
          />
        </Tooltip>
      </Flex>
      <Tree<PanelNode>
        blockNode
        showLine
        draggable={{ icon: false }}
        treeData={treeData}
        expandedKeys={expandedKeys}
        selectedKeys={selected ? [`d:${selected.mac}`] : []}
        titleRender={renderTitle}
        allowDrop={({ dropNode, dropPosition }) => !(dropPosition === 0 && dropNode.isLeaf)}
        onDrop={onDrop}
        onExpand={(keys) => commitNodes(setExpanded(menu.nodes, new Set(keys.map(String))))}
        onDoubleClick={(_e, node) => {
          cancelPendingSelect();
          startEdit(String(node.key));
        }}
        onSelect={(_keys, { node }) => {
          if (editing && editing !== node.key) setEditing(null);
          const mac = node.node.isLeaf ? node.node.data.mac : undefined;
          const device = mac ? byMac.get(mac) : undefined;
          if (!device) return;
          cancelPendingSelect();
          // In place the choice is immediate; in a drawer it waits, as it closes the drawer.
          if (!onDeviceSelected) {
            selectDevice(device.mac);
            return;
          }
          pendingSelect.current = setTimeout(() => {
            pendingSelect.current = null;
            selectDevice(device.mac);
            onDeviceSelected(device);
          }, DOUBLE_CLICK_MS);
        }}
      />
      {detailsDevice && (
        <DeviceDetailsDialog
          key={detailsDevice.mac}
          device={detailsDevice}
          tag={menu.tags.find((x) => x.mac === detailsDevice.mac)}
          onSave={(v) => onSaveDetails(detailsDevice.mac, v)}
          onDelete={() => confirmRemove(detailsDevice)}
          onClose={() => setDetailsMac(null)}
        />
      )}
    </Flex>
  );
}
