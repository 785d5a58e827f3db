import type { MessageLanguage, ReportKind } from '@meterportal/protocol';
import { FilePdfOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Form, List, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelectedDevice } from '../devices/selection';
import { inZone, installationZone } from '../telemetry/zone';
import { useKeptDownload, useKeptQuery, useReportDownload } from './api';
import { FolderReportCard } from './FolderReportCard';
import { ReportChoices } from './ReportChoices';
import {
  interfaceLanguage,
  useDeviceOptions,
  useKindLabel,
  useKindOptions,
  useLanguageOptions,
} from './options';
import { SchedulesCard, ScheduleTitle } from './SchedulesCard';

/** The 24 local months ending with the current one, newest first, as YYYY-MM. */
function recentMonths(tz: string, nowMs: number): string[] {
  const now = inZone(nowMs, tz);
  return Array.from({ length: 24 }, (_, i) => now.startOf('month').subtract(i, 'month').format('YYYY-MM'));
}

/** PDF reports: download one now, schedule them by e-mail or for keeping, download kept ones. */
export function ReportsPage() {
  const { i18n } = useTranslation();
  const tz = installationZone();
  const months = useMemo(() => recentMonths(tz, Date.now()), [tz]);
  const monthLabel = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long', timeZone: 'UTC' });
    return (m: string) => f.format(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 1, 15));
  }, [i18n.language]);
  return (
    <Flex vertical gap={16} className="reports-page">
      <DownloadCard />
      <FolderReportCard months={months} monthLabel={monthLabel} defaultLanguage={interfaceLanguage()} />
      <SchedulesCard />
      <KeptCard />
    </Flex>
  );
}

function DownloadCard() {
  const { t, i18n } = useTranslation();
  const tz = installationZone();
  const selected = useSelectedDevice();
  const devices = useDeviceOptions();
  const languages = useLanguageOptions();
  const months = useMemo(() => recentMonths(tz, Date.now()), [tz]);
  const monthLabel = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long', timeZone: 'UTC' });
    return (m: string) => f.format(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 1, 15));
  }, [i18n.language]);
  const [token, setToken] = useState<string | undefined>(selected?.token ?? devices[0]?.value);
  const kinds = useKindOptions(token);
  const [chosenKind, setKind] = useState<ReportKind>('ENERGY_COST');
  // A kind the device does not have falls back to the first one.
  const kind = kinds.some((k) => k.value === chosenKind) ? chosenKind : 'ENERGY_COST';
  const [month, setMonth] = useState<string>(months[1] ?? months[0]!);
  // The interface language until the user picks another.
  const [picked, setLanguage] = useState<MessageLanguage | null>(null);
  const language = picked ?? interfaceLanguage();
  const mutation = useReportDownload();
  return (
    <Card title={t('reports.title')} size="small">
      <Form layout="vertical" className="reports-download">
        <Form.Item label={t('reports.device')}>
          <Select
            data-testid="report-device"
            value={token}
            options={devices}
            onChange={setToken}
            showSearch
            optionFilterProp="label"
          />
        </Form.Item>
        <ReportChoices
          testId="report"
          kind={kind}
          kinds={kinds}
          onKind={setKind}
          month={month}
          months={months}
          monthLabel={monthLabel}
          onMonth={setMonth}
          language={language}
          languages={languages}
          onLanguage={setLanguage}
          disabled={!token}
          loading={mutation.isPending}
          onDownload={() => token && mutation.mutate({ token, kind, month, language })}
        />
      </Form>
    </Card>
  );
}

function KeptCard() {
  const { t, i18n } = useTranslation();
  const tz = installationZone();
  const query = useKeptQuery();
  const get = useKeptDownload();
  const kindLabel = useKindLabel();
  const date = new Intl.DateTimeFormat(i18n.language, { timeZone: tz, dateStyle: 'medium' });
  const size = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <Card title={t('reports.kept')} size="small">
      <List
        data-testid="report-kept"
        size="small"
        loading={query.isLoading}
        dataSource={query.data ?? []}
        locale={{ emptyText: <Empty description={t('reports.no_kept')} /> }}
        renderItem={(r) => (
          <List.Item
            data-testid="report-kept-item"
            actions={[
              <Button
                key="get"
                size="small"
                icon={<FilePdfOutlined />}
                loading={get.isPending && get.variables === r.id}
                onClick={() => get.mutate(r.id)}
                aria-label={t('reports.download')}
              >
                PDF
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={<ScheduleTitle kind={kindLabel(r)} title={r.title} folder={r.folder !== null} />}
              description={`${t('reports.period')}: ${date.format(r.fromMs)} – ${date.format(r.toMs - 1)} · ${t(
                `reports.language_${r.language}`,
              )} · ${size.format(r.sizeBytes / 1024)} kB`}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
