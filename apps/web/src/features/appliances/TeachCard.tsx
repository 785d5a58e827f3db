import { APPLIANCE_NAME_MAX, ApplianceName, type PowerEdge, type TeachOutcome } from '@meterportal/protocol';
import { Alert, Button, Card, Flex, Input, Steps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { useTeachFinishMutation, useTeachStartMutation } from './api';
import { edgeMessageKey, formatEdge } from './applianceRules';

interface TeachCardProps {
  token: string;
}

type Result = { outcome: Exclude<TeachOutcome, 'LEARNED'>; edges: PowerEdge[] } | null;

/**
 * Teaching a new appliance: the user names it and starts; switches the appliance on and off; then
 * finishes, and the meter reports the edges it saw. Two edges are the imprint; otherwise the
 * edge message says what went wrong and the user may try again.
 */
export function TeachCard({ token }: TeachCardProps) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState('');
  const [listening, setListening] = useState<string | null>(null);
  const [result, setResult] = useState<Result>(null);
  const start = useTeachStartMutation(token);
  const finish = useTeachFinishMutation(token);
  const valid = ApplianceName.safeParse(name).success;

  const onStart = () => {
    setResult(null);
    start.mutate(name.trim(), { onSuccess: (r) => setListening(r.name) });
  };
  const onFinish = () => {
    if (!listening) return;
    finish.mutate(listening, {
      onSuccess: (r) => {
        setListening(null);
        if (r.outcome === 'LEARNED') {
          toast('success', t('appliances.learned', { name: r.appliance?.name ?? name }));
          setName('');
        } else setResult({ outcome: r.outcome, edges: r.edges });
      },
    });
  };

  return (
    <Card title={t('appliances.teach_title')} className="appliance-teach">
      <Flex vertical gap={12}>
        <Steps
          size="small"
          direction="vertical"
          current={listening ? 1 : 0}
          items={[
            { title: t('appliances.step_name') },
            { title: t('appliances.step_switch') },
            { title: t('appliances.step_finish') },
          ]}
        />
        {listening ? (
          <>
            <Alert
              type="info"
              showIcon
              className="appliance-listening"
              message={t('appliances.listening', { name: listening })}
            />
            <Flex gap={8} wrap>
              <Button type="primary" loading={finish.isPending} onClick={onFinish}>
                {t('appliances.finish')}
              </Button>
              <Button disabled={finish.isPending} onClick={() => setListening(null)}>
                {t('common.cancel')}
              </Button>
            </Flex>
          </>
        ) : (
          <Flex gap={8} wrap>
            <Input
              aria-label={t('appliances.name')}
              placeholder={t('appliances.name')}
              value={name}
              maxLength={APPLIANCE_NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              onPressEnter={() => valid && onStart()}
              style={{ flex: '1 1 180px', minWidth: 0 }}
            />
            <Button type="primary" disabled={!valid} loading={start.isPending} onClick={onStart}>
              {t('appliances.start')}
            </Button>
          </Flex>
        )}
        {result && (
          <Alert
            type="warning"
            showIcon
            className="appliance-edge-message"
            message={t(edgeMessageKey(result.outcome))}
            description={
              result.edges.length > 0 ? (
                <Flex gap={4} wrap align="center">
                  <Typography.Text type="secondary">{t('appliances.edges_seen')}:</Typography.Text>
                  {result.edges.map((e, i) => (
                    <Tag key={i}>
                      {e.phase} {formatEdge(e, i18n.language)}
                    </Tag>
                  ))}
                </Flex>
              ) : undefined
            }
          />
        )}
      </Flex>
    </Card>
  );
}
