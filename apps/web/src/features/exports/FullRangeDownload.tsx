import { CloudDownloadOutlined, FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import type { ExportFormat } from '@meterportal/protocol';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSeriesExport, type ExportTarget } from './api';

interface FullRangeDownloadProps {
  /** What to export; null while there is no device selected. */
  target: ExportTarget | null;
}

/**
 * The download menu of a chart card: the whole selected range of the chart's device and
 * quantities, written by the server as CSV or XLSX (not only the points drawn).
 */
export function FullRangeDownload({ target }: FullRangeDownloadProps) {
  const { t } = useTranslation();
  const exporting = useSeriesExport();
  const items: MenuProps['items'] = [
    { key: 'CSV', icon: <FileTextOutlined />, label: t('exports.csv') },
    { key: 'XLSX', icon: <FileExcelOutlined />, label: t('exports.xlsx') },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (target) exporting.mutate({ target, format: key as ExportFormat });
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} disabled={!target}>
      <Button
        size="small"
        icon={<CloudDownloadOutlined />}
        loading={exporting.isPending}
        title={t('exports.hint')}
        data-testid="full-range-download"
      >
        {t('exports.full_range')}
      </Button>
    </Dropdown>
  );
}
