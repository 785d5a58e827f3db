import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

interface RefreshButtonProps {
  /** Seconds of the lockout left; the button is available at 0. */
  secondsLeft: number;
  onRefresh: () => void;
}

/** Asks the device again; disabled with the seconds left while the lockout runs. */
export function RefreshButton({ secondsLeft, onRefresh }: RefreshButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      type="primary"
      icon={<ReloadOutlined />}
      disabled={secondsLeft > 0}
      onClick={onRefresh}
      data-testid="refresh"
    >
      {secondsLeft > 0 ? t('precision.refresh_in', { seconds: secondsLeft }) : t('precision.refresh')}
    </Button>
  );
}
