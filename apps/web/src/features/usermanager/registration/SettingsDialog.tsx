import type { DeviceConnectionSettings } from '@meterportal/protocol';
import { Alert, Button, Descriptions, Grid, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { settingsRows } from './registrationRules';

interface SettingsDialogProps {
  settings: DeviceConnectionSettings;
  title: string;
  onClose: () => void;
}

/** The settings to enter on the device, with the password shown this once and copy buttons. */
export function SettingsDialog({ settings, title, onClose }: SettingsDialogProps) {
  const { t } = useTranslation();
  const phone = Grid.useBreakpoint().sm === false;
  const rows = settingsRows(settings);
  return (
    <Modal
      open
      title={t('registration.settings_title', { title })}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('registration.done')}
        </Button>
      }
      width={640}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        message={t('registration.settings_warning')}
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph strong>{t(`registration.intro_${settings.family}`)}</Typography.Paragraph>
      {settings.command && (
        <Typography.Paragraph
          code
          copyable={{ text: settings.command }}
          className="registration-command"
          style={{ wordBreak: 'break-all' }}
        >
          {settings.command}
        </Typography.Paragraph>
      )}
      <Descriptions
        bordered
        size="small"
        column={1}
        layout={phone ? 'vertical' : 'horizontal'}
        className="registration-settings"
        items={rows.map((r) => ({
          key: r.key,
          label:
            r.key === 'topic' && settings.family === 'tasmota'
              ? t('registration.tasmota_topic')
              : t(`registration.${r.key}`),
          children: r.copy ? (
            <Typography.Text
              code
              copyable={{ text: r.value }}
              data-setting={r.key}
              style={{ wordBreak: 'break-all' }}
            >
              {r.value}
            </Typography.Text>
          ) : (
            <span data-setting={r.key}>{r.translated ? t('registration.on') : r.value}</span>
          ),
        }))}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t(`registration.after_${settings.family}`, { topic: settings.publishTopic })}
      </Typography.Paragraph>
    </Modal>
  );
}
