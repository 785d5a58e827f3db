import { MESSAGE_LANGUAGES, type HierarchyNode, type MessageLanguage } from '@meterportal/protocol';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Form, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHierarchyQuery } from '../devices/api';
import { useFolderReportDownload } from './api';

/** Every folder of the tree as its path of names from the top level, in tree order. */
export function folderPaths(nodes: readonly HierarchyNode[], above: string[] = []): string[][] {
  return nodes.flatMap((n) => {
    if (n.isLeaf || n.data.mac) return [];
    const path = [...above, n.title];
    return [path, ...folderPaths(n.children ?? [], path)];
  });
}

/** A folder's monthly energy and cost over its devices, as a PDF. */
export function FolderReportCard(props: {
  months: string[];
  monthLabel: (m: string) => string;
  defaultLanguage: MessageLanguage;
}) {
  const { t } = useTranslation();
  const hierarchy = useHierarchyQuery();
  const folders = useMemo(() => folderPaths(hierarchy.data?.nodes ?? []), [hierarchy.data]);
  const [picked, setFolder] = useState<string | undefined>(undefined);
  const folder = picked ?? (folders[0] ? JSON.stringify(folders[0]) : undefined);
  const [month, setMonth] = useState<string>(props.months[1] ?? props.months[0]!);
  const [chosenLanguage, setLanguage] = useState<MessageLanguage | null>(null);
  const language = chosenLanguage ?? props.defaultLanguage;
  const mutation = useFolderReportDownload();
  return (
    <Card title={t('reports.folder_title')} size="small">
      <Form layout="vertical" className="reports-folder">
        <Typography.Paragraph type="secondary">{t('reports.folder_note')}</Typography.Paragraph>
        <Form.Item
          label={t('reports.folder')}
          help={folders.length === 0 ? t('reports.no_folders') : undefined}
        >
          <Select
            data-testid="folder-report-folder"
            value={folder}
            options={folders.map((p) => ({ value: JSON.stringify(p), label: p.join(' / ') }))}
            onChange={setFolder}
            loading={hierarchy.isLoading}
            showSearch
            optionFilterProp="label"
          />
        </Form.Item>
        <Flex wrap style={{ columnGap: 12 }}>
          <Form.Item label={t('reports.month')} style={{ minWidth: 160, flex: 1 }}>
            <Select
              data-testid="folder-report-month"
              value={month}
              options={props.months.map((m) => ({ value: m, label: props.monthLabel(m) }))}
              onChange={setMonth}
            />
          </Form.Item>
          <Form.Item label={t('reports.language')} style={{ minWidth: 140, flex: 1 }}>
            <Select
              data-testid="folder-report-language"
              value={language}
              options={MESSAGE_LANGUAGES.map((l) => ({ value: l, label: t(`reports.language_${l}`) }))}
              onChange={setLanguage}
            />
          </Form.Item>
        </Flex>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          disabled={!folder}
          loading={mutation.isPending}
          onClick={() =>
            folder && mutation.mutate({ folder: JSON.parse(folder) as string[], month, language })
          }
          data-testid="folder-report-download"
        >
          {t('reports.download')}
        </Button>
      </Form>
    </Card>
  );
}
