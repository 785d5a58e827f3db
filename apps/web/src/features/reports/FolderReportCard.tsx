import type { FolderReportKind, MessageLanguage } from '@meterportal/protocol';
import { Card, Form, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFolderReportDownload } from './api';
import { ReportChoices } from './ReportChoices';
import { pathOf, useFolderKindOptions, useFolderOptions, useLanguageOptions } from './options';

/** A folder's monthly energy and cost, maximum demand, availability or power quality over its devices, as a PDF. */
export function FolderReportCard(props: {
  months: string[];
  monthLabel: (m: string) => string;
  defaultLanguage: MessageLanguage;
}) {
  const { t } = useTranslation();
  const folders = useFolderOptions();
  const languages = useLanguageOptions();
  const kinds = useFolderKindOptions();
  const [kind, setKind] = useState<FolderReportKind>('ENERGY_COST');
  const [picked, setFolder] = useState<string | undefined>(undefined);
  const folder = picked ?? folders.options[0]?.value;
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
          help={folders.options.length === 0 && !folders.loading ? t('reports.no_folders') : undefined}
        >
          <Select
            data-testid="folder-report-folder"
            value={folder}
            options={folders.options}
            onChange={setFolder}
            loading={folders.loading}
            showSearch
            optionFilterProp="label"
          />
        </Form.Item>
        <ReportChoices
          testId="folder-report"
          kind={kind}
          kinds={kinds}
          onKind={setKind}
          month={month}
          months={props.months}
          monthLabel={props.monthLabel}
          onMonth={setMonth}
          language={language}
          languages={languages}
          onLanguage={setLanguage}
          disabled={!folder}
          loading={mutation.isPending}
          onDownload={() => folder && mutation.mutate({ folder: pathOf(folder), kind, month, language })}
        />
      </Form>
    </Card>
  );
}
