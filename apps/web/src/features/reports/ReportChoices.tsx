import type { MessageLanguage } from '@meterportal/protocol';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The kind, month and language of a PDF report and its download button, as the device's and the
 * folder's report cards both ask them; `testId` names the card's fields (`<testId>-kind`, ...).
 */
export function ReportChoices<K extends string>(props: {
  testId: string;
  kind: K;
  kinds: { value: K; label: string }[];
  onKind: (kind: K) => void;
  month: string;
  months: string[];
  monthLabel: (m: string) => string;
  onMonth: (month: string) => void;
  language: MessageLanguage;
  languages: { value: MessageLanguage; label: string }[];
  onLanguage: (language: MessageLanguage) => void;
  disabled: boolean;
  loading: boolean;
  onDownload: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Flex wrap style={{ columnGap: 12 }}>
        <Form.Item label={t('reports.kind')} style={{ minWidth: 220, flex: 1 }}>
          <Select
            data-testid={`${props.testId}-kind`}
            value={props.kind}
            options={props.kinds}
            onChange={props.onKind}
          />
        </Form.Item>
        <Form.Item label={t('reports.month')} style={{ minWidth: 160, flex: 1 }}>
          <Select
            data-testid={`${props.testId}-month`}
            value={props.month}
            options={props.months.map((m) => ({ value: m, label: props.monthLabel(m) }))}
            onChange={props.onMonth}
          />
        </Form.Item>
        <Form.Item label={t('reports.language')} style={{ minWidth: 140, flex: 1 }}>
          <Select
            data-testid={`${props.testId}-language`}
            value={props.language}
            options={props.languages}
            onChange={props.onLanguage}
          />
        </Form.Item>
      </Flex>
      <Button
        type="primary"
        icon={<DownloadOutlined />}
        disabled={props.disabled}
        loading={props.loading}
        onClick={props.onDownload}
        data-testid={`${props.testId}-download`}
      >
        {t('reports.download')}
      </Button>
    </>
  );
}
